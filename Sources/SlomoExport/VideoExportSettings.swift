import SlomoCore
import SlomoMedia

/// How a constant-frame-rate export renders and encodes its video. The frame rate itself is
/// `ExportSettings.Mode.constantFrameRate(fps)`; these are the rest.
public struct VideoExportSettings: Sendable, Hashable {
    /// The video codec of a CFR export: the codec names slomo uses everywhere.
    public typealias Codec = VideoCodec

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
    /// Shutter emulation (motion blur); `.instant` takes each frame at its time.
    public var shutter: Shutter

    public init(codec: Codec = .h264, profile: String? = nil, crf: Double? = nil, bitRate: Int? = nil,
                preset: String? = nil, gop: Int? = nil, frames: FrameChoice = .auto,
                interpolation: InterpolationPreset = .defaultPreset,
                size: OutputSettings.Size? = nil, scaling: OutputSettings.Scaling = .aspect,
                toneMapping: ToneMapping = .automatic, shutter: Shutter = .instant) {
        self.shutter = shutter
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
    /// The frame rates an export accepts, as `SettingIssue.allowed` says them.
    static let frameRates = Double.leastNonzeroMagnitude...maximumFrameRate.doubleValue
    /// The quality factors x264 and x265 take.
    static let crfs = 0.0...51

    /// Checks everything that can be checked without the source: the frame rate, the size,
    /// the profile and quality options for the codec, and that the FFmpeg build has the
    /// encoder. Throws `ExportError` with the setting at fault (`issue`) and the fix.
    public func validate(frameRate: Rational, encoderAvailable: (String) -> Bool = Encoder.isAvailable) throws {
        guard frameRate > Rational(0) else {
            throw ExportError(.invalidPlan, SettingIssue(.frameRate, "\(frameRate)", "the frame rate must be positive, e.g. 30 or 30000/1001",
                                                         allowed: Self.frameRates))
        }
        guard frameRate <= Self.maximumFrameRate else {
            throw ExportError(.invalidPlan, SettingIssue(.frameRate, "\(frameRate)", "\(frameRate.doubleValue) fps is absurd; at most 1000 fps",
                                                         allowed: Self.frameRates))
        }
        if let size {
            guard size.width > 0, size.height > 0, size.width % 2 == 0, size.height % 2 == 0 else {
                throw ExportError(.invalidPlan, SettingIssue(.size, "\(size)", "width and height must be even and positive (4:2:0 video), e.g. 1280x720"))
            }
            guard size.width <= 16384, size.height <= 16384 else {
                throw ExportError(.invalidPlan, SettingIssue(.size, "\(size)", "at most 16384 pixels a side"))
            }
        }
        if let profile, !codec.profiles.contains(profile) {
            let known = codec.profiles.isEmpty ? "it has none" : "expected " + codec.profiles.joined(separator: ", ")
            throw ExportError(.unsupportedCodec, SettingIssue(.profile, profile, "unknown for {codec} \(codec.rawValue); \(known)"))
        }
        if let crf {
            guard codec.hasQualityFactor else {
                throw ExportError(.invalidPlan, SettingIssue(.crf, nil, "applies to h264 and hevc, not \(codec.rawValue)"))
            }
            guard Self.crfs.contains(crf) else {
                throw ExportError(.invalidPlan, SettingIssue(.crf, String(format: "%g", crf), "expected 0 to 51", allowed: Self.crfs))
            }
        }
        if let preset {
            guard codec.hasQualityFactor else {
                throw ExportError(.invalidPlan, SettingIssue(.preset, nil, "applies to h264 and hevc, not \(codec.rawValue)"))
            }
            guard Self.presets.contains(preset) else {
                throw ExportError(.invalidPlan, SettingIssue(.preset, preset, "expected one of " + Self.presets.joined(separator: ", ")))
            }
        }
        guard Shutter.angles.contains(shutter.angle.doubleValue) else {
            throw ExportError(.invalidPlan, SettingIssue(.shutter, String(format: "%g", shutter.angle.doubleValue), "expected an angle from 0 to 360 degrees "
                                                         + "(180 blurs as a film camera does)", allowed: Shutter.angles))
        }
        guard Shutter.sampleCounts.contains(shutter.samples) else {
            throw ExportError(.invalidPlan, SettingIssue(.shutterSamples, "\(shutter.samples)", "expected 1 to 64 pictures an exposure",
                                                         allowed: 1...64))
        }
        if let bitRate, bitRate <= 0 { throw ExportError(.invalidPlan, SettingIssue(.bitRate, "\(bitRate)", "must be positive", allowed: SettingIssue.positive)) }
        if let gop, gop <= 0 { throw ExportError(.invalidPlan, SettingIssue(.keyframeInterval, "\(gop)", "must be a positive number of frames",
                                                                                allowed: 1...Double.infinity)) }
        guard encoderAvailable(codec.encoderName) else {
            throw ExportError(.unsupportedCodec, SettingIssue(.codec, codec.rawValue, "this FFmpeg build has no \(codec.encoderName) "
                              + "encoder; install one with it or choose another codec (h264, hevc, prores, ffv1)"))
        }
    }

    /// True when tone-mapping HDR to SDR is possible with this FFmpeg build.
    public static var canToneMap: Bool { FilterGraph.hasFilter("zscale") && FilterGraph.hasFilter("tonemap") }
}

extension VideoExportSettings {
    /// The frame choice each segment of `map` renders with at `frameRate`, in output order
    /// (the order of `Plan.segments`): the section's own, else `frames`, with `auto` resolved
    /// by effective frame rate (counted from `frameTimes`, by clip index, for variable-frame-rate
    /// sources).
    public func frameChoices(for map: CompositionMap, frameRate: Rational,
                             frameTimes: [Int: SourceFrameTimes] = [:]) -> [FrameChoice] {
        map.entries.enumerated().flatMap { index, entry in
            entry.map.segments.map { segment in
                SlotSchedule.resolve(segment.frames ?? frames,
                                     effectiveFrameRate: segment.effectiveFrameRate(sourceFrameRate: entry.clip.frameRate,
                                                                                    frameTimes: frameTimes[index]),
                                     target: frameRate)
            }
        }
    }
}
