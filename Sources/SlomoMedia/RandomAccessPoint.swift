import CFFmpeg

/// Tells a keyframe after which no picture refers to one before it (H.264's IDR pictures,
/// HEVC's IRAP pictures, whose leading pictures the decoder drops when it starts there) from
/// one after which some may (an open GOP's H.264 I picture). A decoder that starts at the
/// first kind has every reference it will need.
struct RandomAccessPoint {
    private let codec: AVCodecID
    private let framing: NALUnits.Framing

    /// For a decoder of `codec` with codec `extradata` (`avcC`, `hvcC` or Annex B).
    init(codec: AVCodecID, extradata: UnsafeRawBufferPointer) {
        self.codec = codec
        framing = codec == AV_CODEC_ID_HEVC ? NALUnits.Framing(hevcExtradata: extradata) : NALUnits.Framing(h264Extradata: extradata)
    }

    /// True when `packet` (a keyframe) holds such a picture; false when it does not or the
    /// codec is not H.264 or HEVC.
    func isClean(_ packet: UnsafeRawBufferPointer) -> Bool {
        var clean = false
        NALUnits.forEach(in: packet, framing: framing) { nal in
            if codec == AV_CODEC_ID_H264 {
                clean = clean || nal[0] & 0x1F == 5
            } else if codec == AV_CODEC_ID_HEVC {
                clean = clean || 16...23 ~= (nal[0] >> 1) & 0x3F
            }
        }
        return clean
    }
}
