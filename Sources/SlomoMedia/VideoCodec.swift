/// The video codecs slomo encodes, by the names every command uses (`--codec h264|hevc|prores|ffv1`
/// in `export`, `retime --cfr` and `capture`), with their FFmpeg encoders.
public enum VideoCodec: String, CaseIterable, Sendable, Hashable {
    /// H.264 with libx264: 8-bit 4:2:0, plays everywhere. HDR sources are tone-mapped to SDR.
    case h264
    /// HEVC with libx265: 8-bit, or 10-bit when the source is (HDR tags kept).
    case hevc
    /// Apple ProRes 422 (proxy, lt, standard, hq) or 4444, 10-bit, with FFmpeg's fast
    /// `prores` (Anatoliy) encoder.
    case prores
    /// FFV1, lossless, in the source's pixel format (.mkv or .mov).
    case ffv1

    /// The FFmpeg encoder.
    public var encoderName: String {
        switch self {
        case .h264: "libx264"
        case .hevc: "libx265"
        case .prores: "prores"
        case .ffv1: "ffv1"
        }
    }

    /// The profiles `--profile` accepts, in order; the first is the default.
    public var profiles: [String] {
        switch self {
        case .h264: ["high", "main", "baseline"]
        case .hevc: ["auto", "main", "main10"]
        case .prores: ["hq", "proxy", "lt", "standard", "4444", "4444xq"]
        case .ffv1: []
        }
    }

    /// True for codecs with a constant-quality factor (`--crf`) and x264/x265 presets.
    public var hasQualityFactor: Bool { self == .h264 || self == .hevc }

    /// Encoder options for real-time recording: the fastest settings that keep up
    /// (x264/x265 ultrafast with zero-latency tuning).
    public var realTimeOptions: [String: String] {
        switch self {
        case .h264: ["preset": "ultrafast", "tune": "zerolatency"]
        case .hevc: ["preset": "ultrafast", "tune": "zerolatency", "x265-params": "log-level=error"]
        case .prores: ["profile": "0"]
        case .ffv1: [:]
        }
    }

    /// The pixel format real-time recording encodes in: 10-bit 4:2:2 for ProRes (all it
    /// takes), 8-bit 4:2:0 otherwise.
    public var recordingPixelFormat: PixelFormat { self == .prores ? .yuv422p10 : .yuv420p }
}
