/// HEVC's packet rules (ITU-T H.265 7.3.1, 7.4.2): NAL units that tile the packet, a header with
/// its forbidden bit clear and a temporal id, no reserved unit type, parameter sets that name
/// ids in range, and at least one slice segment whose header names a picture parameter set the
/// stream has, itself naming a sequence parameter set the stream has.
struct HEVCFraming: CodedFraming {
    private let framing: NALUnits.Framing
    /// Sequence parameter set ids seen, and each picture parameter set's sequence set.
    private var sequenceSets: Set<Int> = []
    private var pictureSets: [Int: Int] = [:]

    /// `extradata`: `hvcC` (length-prefixed units, its arrays holding the parameter sets) or Annex B.
    init(extradata: UnsafeRawBufferPointer) {
        framing = NALUnits.Framing(hevcExtradata: extradata)
        guard framing != .startCodes else {
            NALUnits.forEach(in: extradata, framing: .startCodes) { _ = take(nal: $0) }
            return
        }
        var offset = 23
        for _ in 0..<Int(extradata[22]) {
            guard offset + 3 <= extradata.count else { break }
            let count = Int(extradata[offset + 1]) << 8 | Int(extradata[offset + 2])
            offset += 3
            NALUnits.forEachSized(in: extradata, count: count, from: &offset) { _ = take(nal: $0) }
        }
    }

    /// Types in use: slices (0–9, 16–21), parameter sets and other units (32–40), and those left
    /// to applications (48–63: Dolby Vision's RPU lives there). The rest are reserved.
    private static func isReserved(_ type: Int) -> Bool { !(0...9 ~= type || 16...21 ~= type || 32...40 ~= type || type >= 48) }

    mutating func problem(in packet: UnsafeRawBufferPointer) -> String? {
        NALUnits.packetProblem(in: packet, framing: framing) { problem(inUnit: $0, slices: &$1) }
    }

    private mutating func problem(inUnit nal: UnsafeRawBufferPointer, slices: inout Int) -> String? {
        guard nal.count >= 2 else { return "a NAL unit shorter than its header" }
        let type = Int(nal[0] >> 1) & 0x3F
        guard nal[0] & 0x80 == 0 else { return "a NAL unit with its forbidden bit set" }
        guard nal[1] & 7 != 0 else { return "a NAL unit with temporal id 0 (a reserved value)" }
        guard !Self.isReserved(type) else { return "a NAL unit of reserved type \(type)" }
        switch type {
        case 33, 34:
            return take(nal: nal) ? nil : "a \(type == 33 ? "sequence" : "picture") parameter set that does not parse"
        case 0...9, 16...21:
            slices += 1
            return sliceProblem(nal, type: type)
        default:
            return nil
        }
    }

    /// Reads a slice segment header up to its picture parameter set id (7.3.6.1).
    private func sliceProblem(_ nal: UnsafeRawBufferPointer, type: Int) -> String? {
        var reader = NALBitReader(nal: nal)
        do {
            _ = try reader.bits(16)
            _ = try reader.flag()                                // first slice segment in the picture
            if 16...23 ~= type { _ = try reader.flag() }         // no output of prior pictures
            let pictureSet = try reader.unsigned()
            guard let sequenceSet = pictureSets[pictureSet] else {
                return "a slice naming picture parameter set \(pictureSet), which the stream does not have"
            }
            guard sequenceSets.contains(sequenceSet) else {
                return "a slice naming sequence parameter set \(sequenceSet), which the stream does not have"
            }
            return nil
        } catch {
            return "a slice header cut short"
        }
    }

    /// Takes in a sequence or picture parameter set (types 33, 34); says whether it parsed with
    /// ids in range (true for other units).
    private mutating func take(nal: UnsafeRawBufferPointer) -> Bool {
        guard nal.count >= 2 else { return false }
        var reader = NALBitReader(nal: nal)
        do {
            _ = try reader.bits(16)
            switch Int(nal[0] >> 1) & 0x3F {
            case 33:
                _ = try reader.bits(4)                           // video parameter set id
                let subLayers = try reader.bits(3)               // max_sub_layers_minus1
                _ = try reader.flag()                            // temporal id nesting
                try Self.skipProfileTierLevel(&reader, subLayers: subLayers)
                let id = try reader.unsigned()
                guard id <= 15 else { return false }
                sequenceSets.insert(id)
            case 34:
                let id = try reader.unsigned(), sequenceSet = try reader.unsigned()
                guard id <= 63, sequenceSet <= 15 else { return false }
                pictureSets[id] = sequenceSet
            default:
                break
            }
            return true
        } catch {
            return false
        }
    }

    /// profile_tier_level(1, maxNumSubLayersMinus1) (7.3.3).
    private static func skipProfileTierLevel(_ reader: inout NALBitReader, subLayers: Int) throws(NALBitReader.Overrun) {
        for _ in 0..<3 { _ = try reader.bits(32) }       // general profile (88 bits) and level (8 bits)
        var present: [(profile: Bool, level: Bool)] = []
        for _ in 0..<subLayers { present.append((try reader.flag(), try reader.flag())) }
        if subLayers > 0 { for _ in subLayers..<8 { _ = try reader.bits(2) } }
        for layer in present {
            if layer.profile { _ = try reader.bits(32); _ = try reader.bits(32); _ = try reader.bits(24) }
            if layer.level { _ = try reader.bits(8) }
        }
    }
}
