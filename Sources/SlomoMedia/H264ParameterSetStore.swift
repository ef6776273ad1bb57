/// The parameter sets seen so far in an H.264 stream, by id, and how its packets delimit their
/// NAL units; begun from the stream's extradata (`avcC` or Annex B).
struct H264ParameterSetStore {
    var sequences: [Int: H264SequenceParameters] = [:]
    var pictures: [Int: H264PictureParameters] = [:]
    /// Length prefixes of the size `avcC` gives, or start codes when the extradata is Annex B.
    let framing: NALUnits.Framing

    /// The sets of `extradata` (`AVCodecParameters.extradata`).
    init(extradata: UnsafeRawBufferPointer) {
        framing = NALUnits.Framing(h264Extradata: extradata)
        guard framing != .startCodes else {
            NALUnits.forEach(in: extradata, framing: .startCodes) { take(nal: $0) }
            return
        }
        var offset = 5
        for kind in 0..<2 {                          // sequence, then picture parameter sets
            guard offset < extradata.count else { break }
            let count = Int(extradata[offset]) & (kind == 0 ? 0x1F : 0xFF)
            offset += 1
            NALUnits.forEachSized(in: extradata, count: count, from: &offset) { take(nal: $0) }
        }
    }

    /// Takes in a parameter-set NAL unit (types 7 and 8); other units are left alone. Says
    /// whether it could be read (true for other units).
    @discardableResult
    mutating func take(nal: UnsafeRawBufferPointer) -> Bool {
        guard let header = nal.first else { return true }
        var reader = NALBitReader(nal: nal)
        switch header & 0x1F {
        case 7:
            guard let (id, sps) = try? H264SequenceParameters.parse(&reader) else { return false }
            sequences[id] = sps
        case 8:
            guard let (id, pps) = try? H264PictureParameters.parse(&reader) else { return false }
            pictures[id] = pps
        default:
            break
        }
        return true
    }
}
