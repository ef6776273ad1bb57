/// How a composition is exported: the `output` part of an edit script. Every setting is
/// optional; nil means the exporter's default.
public struct OutputSettings: Hashable, Sendable {
    /// Passthrough (packets copied, timestamps rewritten) or constant frame rate (re-encoded).
    public enum Mode: String, CaseIterable, Hashable, Sendable {
        /// Video packets copied, only their timestamps rewritten.
        case passthrough
        /// Every output frame rendered on a fixed grid and re-encoded.
        case cfr
    }

    /// How frames are fitted to `size`.
    public enum Scaling: String, CaseIterable, Hashable, Sendable {
        /// Scale down (never up) to fit inside, keeping the aspect ratio; the picture may be
        /// smaller than the size, with no bars.
        case fit
        /// Stretch to exactly the size, ignoring the aspect ratio.
        case resize
        /// Keep the aspect ratio and fill the size, letterboxing the rest with black.
        case aspect
        /// Keep the aspect ratio and fill the size, cropping the overflow.
        case aspectFill = "aspect-fill"
    }

    /// A frame size in pixels, written `1280x720`.
    public struct Size: Hashable, Sendable, CustomStringConvertible {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int

        /// A size; both sides must be positive (checked by the edit-script reader).
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }

        /// Parses `1280x720`; nil when malformed or not positive.
        public init?(parsing text: String) {
            let parts = text.split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
                  width > 0, height > 0, !parts[0].hasPrefix("+"), !parts[1].hasPrefix("+") else { return nil }
            self.init(width: width, height: height)
        }

        /// `"1280x720"`.
        public var description: String { "\(width)x\(height)" }
    }

    /// Passthrough or CFR.
    public var mode: Mode?
    /// The CFR output frame rate (`30`, `30000/1001`).
    public var fps: Rational?
    /// The video codec name for CFR (`h264`, `hevc`, `prores`, `ffv1`, …).
    public var codec: String?
    /// The default CFR frame choice; sections may override it.
    public var frames: FrameChoice?
    /// The optical-flow preset of interpolated CFR frames.
    public var interpolation: InterpolationPreset?
    /// Shutter emulation of CFR frames (motion blur); nil takes frames at an instant.
    public var shutter: Shutter?
    /// The CFR output frame size.
    public var size: Size?
    /// How frames are fitted to `size`.
    public var scaling: Scaling?
    /// The default audio algorithm; sections may override it.
    public var audio: TimePitchAlgorithm?
    /// The audio codec name (`aac`, `pcm`, `alac`, …).
    public var audioCodec: String?
    /// The engine of spectral audio.
    public var spectralEngine: SpectralEngine?

    /// Settings; all default to nil.
    public init(mode: Mode? = nil, fps: Rational? = nil, codec: String? = nil, frames: FrameChoice? = nil,
                size: Size? = nil, scaling: Scaling? = nil, audio: TimePitchAlgorithm? = nil, audioCodec: String? = nil,
                spectralEngine: SpectralEngine? = nil, interpolation: InterpolationPreset? = nil, shutter: Shutter? = nil) {
        self.shutter = shutter
        self.mode = mode
        self.fps = fps
        self.codec = codec
        self.frames = frames
        self.interpolation = interpolation
        self.size = size
        self.scaling = scaling
        self.audio = audio
        self.audioCodec = audioCodec
        self.spectralEngine = spectralEngine
    }
}
