/// Reads the reference facts of each picture of one H.264 stream from its packets, in decoding
/// order: the parameter sets come from the stream's extradata (`avcC` or Annex B) and from the
/// packets themselves.
public struct H264HeaderReader {
    private var sets: H264ParameterSetStore

    /// `extradata` is the stream's codec extradata (`AVCodecParameters.extradata`).
    public init(extradata: UnsafeRawBufferPointer) {
        sets = H264ParameterSetStore(extradata: extradata)
    }

    /// The picture in `packet` (one access unit): `nil` when it holds no slice, or when any of
    /// its slices uses what `H264PictureReferences` does not follow, or cannot be read.
    public mutating func references(in packet: UnsafeRawBufferPointer) -> H264PictureReferences? {
        var picture: H264PictureReferences?
        var readable = true
        NALUnits.forEach(in: packet, framing: sets.framing) { nal in
            guard readable, let header = nal.first else { return }
            let type = Int(header & 0x1F)
            switch type {
            case 7, 8:
                sets.take(nal: nal)
            case 1, 5:
                var reader = NALBitReader(nal: nal)
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
}
