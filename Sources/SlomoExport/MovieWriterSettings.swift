import SlomoCore
import SlomoMedia

/// What `MovieWriter` writes: the pictures' size and rate, the video codec and quality as in a
/// constant-frame-rate export, and an optional audio track.
public struct MovieWriterSettings: Sendable, Hashable {
    /// The sound track a program appends as sample buffers.
    public struct Audio: Sendable, Hashable {
        public var sampleRate: Int
        public var channelCount: Int
        /// nil: the container's default (AAC in .mov, .mp4 and .mkv).
        public var codec: AudioCodec?

        public init(sampleRate: Int = 48_000, channelCount: Int = 2, codec: AudioCodec? = nil) {
            self.sampleRate = sampleRate
            self.channelCount = channelCount
            self.codec = codec
        }
    }

    /// The size of the pictures appended.
    public var width: Int
    public var height: Int
    /// The frame rate: pictures appended without a time follow each other at this rate, and the
    /// last picture lasts one frame period.
    public var frameRate: Rational
    /// Codec, profile, quality, keyframe interval, and the output `size` and `scaling` (nil
    /// size: the pictures' own). `frames`, `interpolation` and `toneMapping` do not apply.
    public var video: VideoExportSettings
    /// nil: no sound.
    public var audio: Audio?
    /// The video time base; nil: one frame period. Pictures appended at explicit times must
    /// fall on it (1/90000 takes any time in whole 90 kHz ticks).
    public var timeBase: Rational?
    /// How long the movie is expected to be, for `MovieWriter.progress`; nil: unknown.
    public var expectedDuration: MediaTime?
    /// Replace an existing file at the path (it is kept until the new one is complete).
    public var overwrite: Bool

    public init(width: Int, height: Int, frameRate: Rational, video: VideoExportSettings = VideoExportSettings(),
                audio: Audio? = nil, timeBase: Rational? = nil, expectedDuration: MediaTime? = nil, overwrite: Bool = false) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.video = video
        self.audio = audio
        self.timeBase = timeBase
        self.expectedDuration = expectedDuration
        self.overwrite = overwrite
    }

    /// The channel counts and sample rates (Hz) a sound track may have.
    static let channelCounts = 1.0...8
    static let sampleRates = 8000.0...192_000

    /// Checks the settings that need no file: the picture size, the frame rate and video
    /// options (as a CFR export checks them), the time base and the audio format. Throws
    /// `ExportError` with the setting at fault.
    public func validate() throws {
        guard (1...16384).contains(width), (1...16384).contains(height) else {
            throw ExportError(.invalidPlan, SettingIssue(.size, "\(width)x\(height)", "pictures have 1 to 16384 pixels a side"))
        }
        try video.validate(frameRate: frameRate)
        if let timeBase, timeBase <= Rational(0) {
            throw ExportError(.invalidPlan, SettingIssue(.timeBase, "\(timeBase)", "must be positive, e.g. 1/90000", allowed: SettingIssue.positive))
        }
        if let audio {
            guard Self.channelCounts.contains(Double(audio.channelCount)) else {
                throw ExportError(.invalidPlan, SettingIssue(.audioFormat, "\(audio.channelCount) channels", "expected 1 to 8 channels",
                                                             allowed: Self.channelCounts))
            }
            guard Self.sampleRates.contains(Double(audio.sampleRate)) else {
                throw ExportError(.invalidPlan, SettingIssue(.audioFormat, "\(audio.sampleRate) Hz", "expected 8000 to 192000 Hz",
                                                             allowed: Self.sampleRates))
            }
        }
    }
}
