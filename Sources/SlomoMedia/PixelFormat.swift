import CFFmpeg

/// A video pixel format (`AVPixelFormat`) with the facts slomo needs about it.
public struct PixelFormat: Hashable, Sendable, CustomStringConvertible {
    let raw: AVPixelFormat

    init(_ raw: AVPixelFormat) { self.raw = raw }

    /// Looks a format up by FFmpeg's name (`"yuv420p"`, `"yuv420p10le"`).
    public init?(name: String) {
        let raw = av_get_pix_fmt(name)
        guard raw != AV_PIX_FMT_NONE else { return nil }
        self.raw = raw
    }

    public static let yuv420p = PixelFormat(AV_PIX_FMT_YUV420P)
    public static let yuv420p10 = PixelFormat(AV_PIX_FMT_YUV420P10LE)
    public static let yuv422p10 = PixelFormat(AV_PIX_FMT_YUV422P10LE)
    public static let rgb24 = PixelFormat(AV_PIX_FMT_RGB24)
    public static let gray = PixelFormat(AV_PIX_FMT_GRAY8)

    /// FFmpeg's name, e.g. `yuv420p10le`; `"none"` when unknown.
    public var name: String { av_get_pix_fmt_name(raw).map { String(cString: $0) } ?? "none" }

    /// Bits per component of the first (luma) plane, e.g. 8 or 10; `nil` when unknown.
    public var bitDepth: Int? {
        guard let descriptor = av_pix_fmt_desc_get(raw) else { return nil }
        return Int(descriptor.pointee.comp.0.depth)
    }

    public var description: String { name }
}

/// An audio sample format (`AVSampleFormat`).
public struct SampleFormat: Hashable, Sendable, CustomStringConvertible {
    let raw: AVSampleFormat

    init(_ raw: AVSampleFormat) { self.raw = raw }

    /// 32-bit float, one plane per channel: what slomo's audio processing works in.
    public static let floatPlanar = SampleFormat(AV_SAMPLE_FMT_FLTP)
    /// 32-bit float, channels interleaved.
    public static let float = SampleFormat(AV_SAMPLE_FMT_FLT)
    /// 16-bit signed integer, channels interleaved.
    public static let int16 = SampleFormat(AV_SAMPLE_FMT_S16)
    /// 16-bit signed integer, one plane per channel.
    public static let int16Planar = SampleFormat(AV_SAMPLE_FMT_S16P)
    /// 32-bit signed integer, channels interleaved (24-bit PCM and FLAC take their samples in it).
    public static let int32 = SampleFormat(AV_SAMPLE_FMT_S32)
    /// 32-bit signed integer, one plane per channel.
    public static let int32Planar = SampleFormat(AV_SAMPLE_FMT_S32P)

    /// FFmpeg's name, e.g. `fltp`.
    public var name: String { av_get_sample_fmt_name(raw).map { String(cString: $0) } ?? "none" }
    /// True when each channel has its own plane.
    public var isPlanar: Bool { av_sample_fmt_is_planar(raw) != 0 }
    /// Bytes in one sample of one channel.
    public var bytesPerSample: Int { Int(av_get_bytes_per_sample(raw)) }

    public var description: String { name }
}
