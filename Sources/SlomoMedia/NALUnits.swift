/// The NAL units of one H.264 or HEVC packet (or of Annex B extradata), and whether they tile
/// it exactly: in a sound packet every byte belongs to a unit, none is empty, none runs past
/// the end.
enum NALUnits {
    /// How the units of a stream are delimited.
    enum Framing: Equatable {
        /// A big-endian length of 1–4 bytes before each unit (MP4 and QuickTime: `avcC`, `hvcC`).
        case lengthPrefixed(Int)
        /// A `00 00 01` start code before each unit (Annex B: MPEG-TS, raw streams).
        case startCodes

        /// How an H.264 stream with this extradata delimits its units: the length size of
        /// `avcC`, else start codes.
        init(h264Extradata extradata: UnsafeRawBufferPointer) {
            self = extradata.count >= 7 && extradata[0] == 1 ? .lengthPrefixed(Int(extradata[4] & 3) + 1) : .startCodes
        }

        /// How an HEVC stream with this extradata delimits its units: the length size of
        /// `hvcC`, else start codes.
        init(hevcExtradata extradata: UnsafeRawBufferPointer) {
            self = extradata.count >= 23 && extradata[0] == 1 ? .lengthPrefixed(Int(extradata[21] & 3) + 1) : .startCodes
        }
    }

    /// Why a packet's units do not tile it.
    enum TilingProblem: Equatable, CustomStringConvertible {
        case emptyUnit
        case unitPastEnd
        case strayBytes(count: Int)
        case noUnits

        var description: String {
            switch self {
            case .emptyUnit: "a NAL unit of 0 bytes"
            case .unitPastEnd: "a NAL unit runs past the packet's end"
            case .strayBytes(let count): "\(count) stray bytes outside any NAL unit"
            case .noUnits: "no NAL unit"
            }
        }
    }

    /// Calls `body` with each unit of `data` in order (header byte included, delimiter not) and
    /// says how the units fail to tile it; nil when they tile it exactly. Stops at the first
    /// unit whose length prefix is wrong.
    @discardableResult
    static func forEach(in data: UnsafeRawBufferPointer, framing: Framing,
                        _ body: (UnsafeRawBufferPointer) -> Void) -> TilingProblem? {
        switch framing {
        case .lengthPrefixed(let lengthSize): return forEachPrefixed(in: data, lengthSize: lengthSize, body)
        case .startCodes: return forEachAfterStartCode(in: data, body)
        }
    }

    private static func forEachPrefixed(in data: UnsafeRawBufferPointer, lengthSize: Int,
                                        _ body: (UnsafeRawBufferPointer) -> Void) -> TilingProblem? {
        var offset = 0
        while offset + lengthSize <= data.count {
            var size = 0
            for index in 0..<lengthSize { size = size << 8 | Int(data[offset + index]) }
            offset += lengthSize
            guard size > 0 else { return .emptyUnit }
            guard offset + size <= data.count else { return .unitPastEnd }
            body(UnsafeRawBufferPointer(rebasing: data[offset..<offset + size]))
            offset += size
        }
        if offset < data.count { return .strayBytes(count: data.count - offset) }
        return offset == 0 ? .noUnits : nil
    }

    /// Annex B: units start after each `00 00 01`; a unit's trailing zeros belong to the next
    /// start code (`00 00 00 01`), and zeros may come before the first one.
    private static func forEachAfterStartCode(in data: UnsafeRawBufferPointer,
                                              _ body: (UnsafeRawBufferPointer) -> Void) -> TilingProblem? {
        var starts: [Int] = []
        var offset = 0
        while offset + 3 <= data.count {
            if data[offset] == 0 && data[offset + 1] == 0 && data[offset + 2] == 1 {
                starts.append(offset + 3)
                offset += 3
            } else {
                offset += 1
            }
        }
        guard let first = starts.first else { return data.isEmpty ? .noUnits : .strayBytes(count: data.count) }
        let leading = data[..<(first - 3)].filter { $0 != 0 }.count
        for (index, start) in starts.enumerated() {
            var end = index + 1 < starts.count ? starts[index + 1] - 3 : data.count
            while end > start && data[end - 1] == 0 { end -= 1 }
            guard end > start else { return .emptyUnit }
            body(UnsafeRawBufferPointer(rebasing: data[start..<end]))
        }
        return leading > 0 ? .strayBytes(count: leading) : nil
    }

    /// Calls `body` with each of `count` units stored as a 2-byte big-endian size followed by
    /// the unit (how `avcC` and `hvcC` hold parameter sets), from `offset`, which it moves past
    /// them; stops at a size that runs past the end of `data`.
    static func forEachSized(in data: UnsafeRawBufferPointer, count: Int, from offset: inout Int,
                             _ body: (UnsafeRawBufferPointer) -> Void) {
        for _ in 0..<count {
            guard offset + 2 <= data.count else { return }
            let size = Int(data[offset]) << 8 | Int(data[offset + 1])
            offset += 2
            guard offset + size <= data.count else { return }
            body(UnsafeRawBufferPointer(rebasing: data[offset..<offset + size]))
            offset += size
        }
    }

    /// What is wrong with a packet of units delimited by `framing`: how the units fail to tile
    /// it, else the first problem `unit` finds in a unit, else a packet without a picture slice;
    /// nil when none. `unit` says a unit's problem and counts the slices it meets.
    static func packetProblem(in packet: UnsafeRawBufferPointer, framing: Framing,
                              unit: (UnsafeRawBufferPointer, inout Int) -> String?) -> String? {
        var found: String?
        var slices = 0
        let tiling = forEach(in: packet, framing: framing) { nal in
            if found == nil { found = unit(nal, &slices) }
        }
        if let tiling { return tiling.description }
        return found ?? (slices == 0 ? "a packet without a picture slice" : nil)
    }
}
