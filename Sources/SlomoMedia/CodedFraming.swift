/// One codec's rules for how a packet's bytes are built (units that tile it, markers in order,
/// headers that parse, sizes that add up), checked without decoding: what `StructureCheck`
/// applies to every packet a passthrough export copies.
protocol CodedFraming {
    /// Why `packet` breaks the rules ("a NAL unit runs past the packet's end"); nil when it
    /// keeps them. Takes in what later packets depend on (parameter sets).
    mutating func problem(in packet: UnsafeRawBufferPointer) -> String?
}

/// The framing rules of the codecs slomo knows them for: H.264, HEVC, Motion JPEG and ProRes.
enum CodedFramings {
    /// The rules for a stream of `codec` (FFmpeg's codec name), begun from its `extradata`;
    /// nil for a codec without them.
    static func framing(codec: String, extradata: UnsafeRawBufferPointer, video: VideoInfo?) -> (any CodedFraming)? {
        switch codec {
        case "h264": H264Framing(extradata: extradata)
        case "hevc": HEVCFraming(extradata: extradata)
        case "mjpeg": JPEGFraming()
        case "prores": video.map { ProResFraming(width: $0.width, height: $0.height) }
        default: nil
        }
    }
}
