/// The parameter sets seen so far in an H.264 stream, by id.
struct H264ParameterSetStore {
    var sequences: [Int: H264SequenceParameters] = [:]
    var pictures: [Int: H264PictureParameters] = [:]

    /// Takes in a parameter-set NAL unit (types 7 and 8); other units are left alone.
    mutating func take(nal: UnsafeRawBufferPointer) {
        guard let header = nal.first else { return }
        var reader = H264BitReader(nal: nal)
        switch header & 0x1F {
        case 7:
            if let (id, sps) = try? H264SequenceParameters.parse(&reader) { sequences[id] = sps }
        case 8:
            if let (id, pps) = try? H264PictureParameters.parse(&reader) { pictures[id] = pps }
        default:
            break
        }
    }
}

/// Reads the reference facts of each picture of one H.264 stream from its packets, in decoding
/// order: the parameter sets come from the stream's extradata (`avcC` or Annex B) and from the
/// packets themselves.
public struct H264HeaderReader {
    private var sets = H264ParameterSetStore()
    /// Bytes of each NAL unit's length prefix (`avcC`), or 0 for start codes (Annex B).
    private let lengthSize: Int

    /// `extradata` is the stream's codec extradata (`AVCodecParameters.extradata`).
    public init(extradata: UnsafeRawBufferPointer) {
        if extradata.count >= 7 && extradata[0] == 1 {
            lengthSize = Int(extradata[4] & 3) + 1
            var offset = 5
            for kind in 0..<2 {
                guard offset < extradata.count else { break }
                let count = Int(extradata[offset]) & (kind == 0 ? 0x1F : 0xFF)
                offset += 1
                for _ in 0..<count {
                    guard offset + 2 <= extradata.count else { break }
                    let size = Int(extradata[offset]) << 8 | Int(extradata[offset + 1])
                    offset += 2
                    guard offset + size <= extradata.count else { break }
                    sets.take(nal: UnsafeRawBufferPointer(rebasing: extradata[offset..<offset + size]))
                    offset += size
                }
            }
        } else {
            lengthSize = 0
            Self.forEachNAL(in: extradata, lengthSize: 0) { sets.take(nal: $0) }
        }
    }

    /// The picture in `packet` (one access unit): `nil` when it holds no slice, or when any of
    /// its slices uses what `H264PictureReferences` does not follow, or cannot be read.
    public mutating func references(in packet: UnsafeRawBufferPointer) -> H264PictureReferences? {
        var picture: H264PictureReferences?
        var readable = true
        Self.forEachNAL(in: packet, lengthSize: lengthSize) { nal in
            guard readable, let header = nal.first else { return }
            let type = Int(header & 0x1F)
            switch type {
            case 7, 8:
                sets.take(nal: nal)
            case 1, 5:
                var reader = H264BitReader(nal: nal)
                guard let slice = try? H264PictureReferences.SliceLists.parse(
                    &reader, nalType: type, referenceIDC: Int(header >> 5) & 3, sets: sets) else {
                    readable = false
                    return
                }
                if var known = picture {
                    guard known.frameNum == slice.frameNum, known.marking == slice.marking else {
                        readable = false
                        return
                    }
                    known.slices.append(slice.lists)
                    picture = known
                } else {
                    picture = H264PictureReferences(
                        frameNum: slice.frameNum, maxFrameNum: 1 << slice.sps.log2MaxFrameNum,
                        maxReferenceFrames: slice.sps.maxReferenceFrames,
                        declaresReorderDepth: slice.sps.declaresReorderDepth, marking: slice.marking, slices: [slice.lists])
                }
            case 2, 3, 4:
                readable = false                                 // data partitioning
            default:
                break
            }
        }
        return readable ? picture : nil
    }

    private static func forEachNAL(in data: UnsafeRawBufferPointer, lengthSize: Int,
                                   _ body: (UnsafeRawBufferPointer) -> Void) {
        var offset = 0
        if lengthSize > 0 {
            while offset + lengthSize <= data.count {
                var size = 0
                for index in 0..<lengthSize { size = size << 8 | Int(data[offset + index]) }
                offset += lengthSize
                guard size > 0, offset + size <= data.count else { return }
                body(UnsafeRawBufferPointer(rebasing: data[offset..<offset + size]))
                offset += size
            }
            return
        }
        // Annex B: units start after each 00 00 01; a unit's trailing zeros belong to the next start code.
        var starts: [Int] = []
        while offset + 3 <= data.count {
            if data[offset] == 0 && data[offset + 1] == 0 && data[offset + 2] == 1 {
                starts.append(offset + 3)
                offset += 3
            } else {
                offset += 1
            }
        }
        for (index, start) in starts.enumerated() {
            var end = index + 1 < starts.count ? starts[index + 1] - 3 : data.count
            while end > start && data[end - 1] == 0 { end -= 1 }
            body(UnsafeRawBufferPointer(rebasing: data[start..<end]))
        }
    }
}
