import SlomoCore
import SlomoMedia

/// How a constant-frame-rate export renders and encodes its video. The frame rate itself is
/// `ExportSettings.Mode.constantFrameRate(fps)`; these are the rest.
public struct VideoExportSettings: Sendable, Hashable {
    /// The video codec of a CFR export.
    public enum Codec: String, CaseIterable, Sendable, Hashable {
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
    }

    /// What to do with an HDR source when the output codec is SDR-only (h264).
    public enum ToneMapping: String, CaseIterable, Sendable, Hashable {
        /// Tone-map to SDR BT.709 with libavfilter's zscale + tonemap (hable); refused when the
        /// FFmpeg build has no zimg.
        case automatic = "auto"
        /// Refuse HDR into h264 with an error that names the alternatives.
        case refuse = "off"
    }

    /// Presets libx264 and libx265 know.
    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower",
                                 "veryslow", "placebo"]

    public var codec: Codec
    /// A profile from `codec.profiles`; nil for the default.
    public var profile: String?
    /// Constant rate factor for h264/hevc (0–51); nil: 20 (h264) or 24 (hevc) unless a bit rate is given.
    public var crf: Double?
    /// Target bit rate in bits per second.
    public var bitRate: Int?
    /// x264/x265 preset; nil: `medium`.
    public var preset: String?
    /// Keyframe interval in frames; nil: the encoder's default.
    public var gop: Int?
    /// The default frame choice for sections that name none.
    public var frames: FrameChoice
    /// How hard optical-flow interpolation works where slots are interpolated (`interpolate`,
    /// and `auto` in sections without enough source frames).
    public var interpolation: InterpolationPreset
    /// The output frame size; nil keeps the source's (the first clip's).
    public var size: OutputSettings.Size?
    /// How pictures are fitted to `size`.
    public var scaling: OutputSettings.Scaling
    /// HDR into h264.
    public var toneMapping: ToneMapping

    public init(codec: Codec = .h264, profile: String? = nil, crf: Double? = nil, bitRate: Int? = nil,
                preset: String? = nil, gop: Int? = nil, frames: FrameChoice = .auto,
                interpolation: InterpolationPreset = .defaultPreset,
                size: OutputSettings.Size? = nil, scaling: OutputSettings.Scaling = .aspect,
                toneMapping: ToneMapping = .automatic) {
        self.codec = codec
        self.profile = profile
        self.crf = crf
        self.bitRate = bitRate
        self.preset = preset
        self.gop = gop
        self.frames = frames
        self.interpolation = interpolation
        self.size = size
        self.scaling = scaling
        self.toneMapping = toneMapping
    }

    /// The highest output frame rate accepted.
    public static let maximumFrameRate = Rational(1000)

    /// Checks everything that can be checked without the source: the frame rate, the size,
    /// the profile and quality options for the codec, and that the FFmpeg build has the
    /// encoder. Throws `ExportError` naming the option and the fix.
    public func validate(frameRate: Rational, encoderAvailable: (String) -> Bool = Encoder.isAvailable) throws {
        guard frameRate > Rational(0) else {
            throw ExportError(.invalidPlan, "--cfr \(frameRate): the frame rate must be positive, e.g. 30 or 30000/1001")
        }
        guard frameRate <= Self.maximumFrameRate else {
            throw ExportError(.invalidPlan, "--cfr \(frameRate): \(frameRate.doubleValue) fps is absurd; at most 1000 fps")
        }
        if let size {
            guard size.width > 0, size.height > 0, size.width % 2 == 0, size.height % 2 == 0 else {
                throw ExportError(.invalidPlan, "--size \(size): width and height must be even and positive (4:2:0 video), e.g. 1280x720")
            }
            guard size.width <= 16384, size.height <= 16384 else {
                throw ExportError(.invalidPlan, "--size \(size): at most 16384 pixels a side")
            }
        }
        if let profile, !codec.profiles.contains(profile) {
            let known = codec.profiles.isEmpty ? "it has none" : "expected " + codec.profiles.joined(separator: ", ")
            throw ExportError(.unsupportedCodec, "--profile \(profile): unknown for --codec \(codec.rawValue); \(known)")
        }
        if let crf {
            guard codec.hasQualityFactor else {
                throw ExportError(.invalidPlan, "--crf applies to h264 and hevc, not \(codec.rawValue)")
            }
            guard (0...51).contains(crf) else { throw ExportError(.invalidPlan, "--crf \(crf): expected 0 to 51") }
        }
        if let preset {
            guard codec.hasQualityFactor else {
                throw ExportError(.invalidPlan, "--preset applies to h264 and hevc, not \(codec.rawValue)")
            }
            guard Self.presets.contains(preset) else {
                throw ExportError(.invalidPlan, "--preset \(preset): expected one of " + Self.presets.joined(separator: ", "))
            }
        }
        if let bitRate, bitRate <= 0 { throw ExportError(.invalidPlan, "--bitrate must be positive") }
        if let gop, gop <= 0 { throw ExportError(.invalidPlan, "--gop must be a positive number of frames") }
        guard encoderAvailable(codec.encoderName) else {
            throw ExportError(.unsupportedCodec, "--codec \(codec.rawValue): this FFmpeg build has no \(codec.encoderName) encoder; "
                              + "install one with it or choose another codec (h264, hevc, prores, ffv1)")
        }
    }

    /// True when tone-mapping HDR to SDR is possible with this FFmpeg build.
    public static var canToneMap: Bool { FilterGraph.hasFilter("zscale") && FilterGraph.hasFilter("tonemap") }
}

/// The mastering display and content light metadata an HDR export carries over.
struct HDRMetadata {
    var masteringDisplay: MasteringDisplay?
    var contentLight: ContentLight?

    /// The stream's metadata, else the first decoded picture's (x265 and others put it in SEI
    /// messages only).
    static func of(_ path: String, stream: StreamInfo) throws -> HDRMetadata {
        var metadata = HDRMetadata(masteringDisplay: stream.video?.hdr?.masteringDisplay,
                                   contentLight: stream.video?.hdr?.contentLight)
        if metadata.masteringDisplay == nil || metadata.contentLight == nil,
           let first = try FrameReader(path: path, stream: stream.index).next() {
            metadata.masteringDisplay = metadata.masteringDisplay ?? first.masteringDisplay
            metadata.contentLight = metadata.contentLight ?? first.contentLight
        }
        return metadata
    }
}

/// The encoder-side decisions for one export: pixel format, colour, encoder options.
struct VideoEncoding {
    let settings: VideoExportSettings
    let pixelFormat: PixelFormat
    /// The colour tags of the output pictures.
    let color: ColorInfo
    /// True when HDR source pictures are tone-mapped to SDR BT.709.
    let toneMaps: Bool

    static func isHDR(_ video: VideoInfo) -> Bool {
        video.hdr != nil || video.color.transfer == "smpte2084" || video.color.transfer == "arib-std-b67"
    }

    /// Decides for a source (the first clip's video). Throws when HDR would go into h264 and
    /// tone-mapping is refused or impossible.
    init(_ settings: VideoExportSettings, source: VideoInfo, path: String) throws {
        self.settings = settings
        let hdr = Self.isHDR(source)
        let deep = (source.bitDepth ?? 8) > 8
        toneMaps = hdr && settings.codec == .h264
        if toneMaps {
            guard settings.toneMapping == .automatic else {
                throw ExportError(.unsupportedCodec, "\(path): is HDR (\(source.color.transfer ?? "HDR")) and h264 output is SDR; "
                                  + "use --codec hevc or --codec prores to keep HDR, or allow tone-mapping (--tone-map auto)")
            }
            guard VideoExportSettings.canToneMap else {
                throw ExportError(.unsupportedCodec, "\(path): is HDR and h264 output is SDR, but this FFmpeg build has no "
                                  + "tone-mapper (zscale needs zimg); use --codec hevc or --codec prores to keep HDR")
            }
        }
        switch settings.codec {
        case .h264:
            pixelFormat = .yuv420p
        case .hevc:
            switch settings.profile {
            case "main": pixelFormat = .yuv420p
            case "main10": pixelFormat = .yuv420p10
            default: pixelFormat = deep ? .yuv420p10 : .yuv420p
            }
        case .prores:
            pixelFormat = (settings.profile ?? "hq").hasPrefix("4444") ? PixelFormat(name: "yuv444p10le")! : .yuv422p10
        case .ffv1:
            pixelFormat = PixelFormat(name: source.pixelFormat) ?? .yuv420p
        }
        color = toneMaps ? ColorInfo.named(primaries: "bt709", transfer: "bt709", matrix: "bt709", range: "tv") : source.color
    }

    /// The libavfilter chain that tone-maps the source's HDR pictures to SDR BT.709 4:2:0.
    func toneMapFilter(source: VideoInfo) -> String {
        var input = "t=linear:npl=100"
        if let transfer = source.color.transfer { input = "tin=\(transfer):" + input }
        if let primaries = source.color.primaries { input = "pin=\(primaries):" + input }
        if let matrix = source.color.matrix { input = "min=\(matrix):" + input }
        return "zscale=\(input),format=gbrpf32le,zscale=p=bt709,tonemap=tonemap=hable:desat=0,"
            + "zscale=t=bt709:m=bt709:r=tv"
    }

    /// The encoder settings for pictures of `width`×`height` at `frameRate`.
    func encoderSettings(width: Int, height: Int, frameRate: Rational, hdr: HDRMetadata) -> VideoEncoderSettings {
        var options: [String: String] = [:]
        if let primaries = color.primaries { options["color_primaries"] = primaries }
        if let transfer = color.transfer { options["color_trc"] = transfer }
        if let matrix = color.matrix { options["colorspace"] = matrix }
        if let range = color.range { options["color_range"] = range }
        switch settings.codec {
        case .h264:
            options["preset"] = settings.preset ?? "medium"
            if settings.bitRate == nil { options["crf"] = Self.number(settings.crf ?? 20) }
            if let profile = settings.profile { options["profile"] = profile }
            // The lookahead in the encoding thread, not its own: the same stream bit for bit,
            // ≈ 30 MB less at 1080p with the medium preset (its buffer frames).
            options["x264-params"] = "sync-lookahead=0"
        case .hevc:
            options["preset"] = settings.preset ?? "medium"
            if settings.bitRate == nil { options["crf"] = Self.number(settings.crf ?? 24) }
            var params = ["log-level=error"]
            if !toneMaps {
                if let display = hdr.masteringDisplay, let master = Self.x265MasterDisplay(display) {
                    params.append("master-display=\(master)")
                }
                if let light = hdr.contentLight {
                    params.append("max-cll=\(light.maxContentLightLevel),\(light.maxFrameAverageLightLevel)")
                }
            }
            options["x265-params"] = params.joined(separator: ":")
        case .prores:
            let profiles = ["proxy": 0, "lt": 1, "standard": 2, "hq": 3, "4444": 4, "4444xq": 5]
            options["profile"] = String(profiles[settings.profile ?? "hq"] ?? 3)
        case .ffv1:
            options["level"] = "3"
        }
        return VideoEncoderSettings(codec: settings.codec.encoderName, width: width, height: height,
                                    pixelFormat: pixelFormat, timeBase: frameRate.reciprocal, frameRate: frameRate,
                                    sampleAspectRatio: Rational(1), bitRate: settings.bitRate, gopSize: settings.gop,
                                    options: options)
    }

    /// x265's `G(x,y)B(x,y)R(x,y)WP(x,y)L(max,min)` in units of 0.00002 and 0.0001 nits.
    static func x265MasterDisplay(_ display: MasteringDisplay) -> String? {
        guard let primaries = display.primaries, primaries.count == 3, let white = display.whitePoint,
              let maxL = display.maxLuminance, let minL = display.minLuminance else { return nil }
        func xy(_ pair: [Double]) -> String { "(\(Int((pair[0] * 50000).rounded())),\(Int((pair[1] * 50000).rounded())))" }
        return "G\(xy(primaries[1]))B\(xy(primaries[2]))R\(xy(primaries[0]))WP\(xy(white))"
            + "L(\(Int((maxL * 10000).rounded())),\(Int((minL * 10000).rounded())))"
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

extension VideoExportSettings {
    /// The frame choice each segment of `map` renders with at `frameRate`, in output order
    /// (the order of `Plan.segments`): the section's own, else `frames`, with `auto` resolved
    /// by effective frame rate.
    public func frameChoices(for map: CompositionMap, frameRate: Rational) -> [FrameChoice] {
        map.entries.flatMap { entry in
            entry.map.segments.map { segment in
                SlotSchedule.resolve(segment.frames ?? frames, segment: segment, sourceFrameRate: entry.clip.frameRate,
                                     target: frameRate)
            }
        }
    }
}
