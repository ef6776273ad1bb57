import Foundation
import SlomoCore
import SlomoMedia

extension MovieFileOutput {
    /// How the output records.
    public struct Settings: Sendable {
        public var path: String
        /// Length of a fragment, i.e. at most what a crash loses.
        public var fragmentInterval: MediaTime = .seconds(2)
        public var maxDuration: MediaTime?
        /// Stop before the file would grow past this many bytes.
        public var maxSize: Int64?
        /// Stop before the disk holding the file would have less than this many bytes free.
        public var minFreeSpace: Int64? = 64 << 20
        /// Encoder for raw video: `libx264` by default (`libx265`, `mjpeg`, `ffv1`, …).
        public var videoCodec = "libx264"
        /// Options of the video encoder; the default suits libx264 in real time.
        public var videoCodecOptions: [String: String] = VideoCodec.h264.realTimeOptions
        /// The pixel format raw video is encoded in.
        public var videoPixelFormat: PixelFormat = .yuv420p
        /// How raw sound is stored; nil picks AAC for `.mp4` and PCM for `.mov`.
        public var audioCodec: AudioCodec?
        /// Scale factor for encoded video (e.g. 0.5 halves a screen capture); nil keeps the size.
        public var scale: Double?
        /// The size of encoded video (like an export's output size); wins over `scale`; nil
        /// keeps the source's size (times `scale`).
        public var size: OutputSettings.Size?
        /// Container tags (`title`, `comment`, any key), written into the file; more can be
        /// added while recording (`addMetadata(key:value:)`).
        public var metadata: [String: String] = [:]
        /// Room left in the file's header for tags added while recording.
        public var headerReserveBytes = 16 * 1024
        public var overwrite = false
        /// Memory the samples waiting for the writer may take, all inputs together (a sample
        /// that does not fit is dropped and counted `queueFull`).
        public var queueBudgetBytes = 256 << 20

        public init(path: String) { self.path = path }

        /// Encodes raw video with `codec` (`--codec h264|hevc|prores|ffv1`), in its real-time
        /// settings and pixel format.
        public mutating func encodeRawVideo(with codec: VideoCodec) {
            videoCodec = codec.encoderName
            videoCodecOptions = codec.realTimeOptions
            videoPixelFormat = codec.recordingPixelFormat
        }

        /// The limits that end the recording by themselves.
        var limits: RecordingLimits {
            RecordingLimits(maximumDuration: maxDuration, maximumSize: maxSize, minimumFreeSpace: minFreeSpace)
        }
    }

    /// Seconds a fragment may last, bytes a file may be limited to, and the scale factors.
    static let fragmentIntervals = 0.1...60.0
    static let maximumSizes = Double(256 * 1024)...Double.infinity
    static let scales = Double.leastNonzeroMagnitude...4

    /// Checks the limits and that the target may be written, before any input is opened.
    func checkSettings() throws(CaptureError) {
        guard Self.fragmentIntervals.contains(settings.fragmentInterval.doubleSeconds) else {
            throw CaptureError(.invalidLimit, SettingIssue(.fragmentInterval, settings.fragmentInterval.description, "must be between 0.1 and 60 seconds",
                                                           allowed: Self.fragmentIntervals))
        }
        if let limit = settings.maxDuration, limit.doubleSeconds <= 0 {
            throw CaptureError(.invalidLimit, SettingIssue(.maximumDuration, limit.description, "must be positive", allowed: SettingIssue.positive))
        }
        if let limit = settings.maxSize, !Self.maximumSizes.contains(Double(limit)) {
            throw CaptureError(.invalidLimit, SettingIssue(.maximumSize, "\(limit)", "must be at least 256 KiB",
                                                           allowed: Self.maximumSizes))
        }
        if let limit = settings.minFreeSpace, limit < 0 {
            throw CaptureError(.invalidLimit, SettingIssue(.minimumFreeSpace, "\(limit)", "cannot be negative", allowed: 0...Double.infinity))
        }
        if let size = settings.size,
           !(16...7680).contains(size.width) || !(16...4320).contains(size.height) || size.width % 2 != 0 || size.height % 2 != 0 {
            throw CaptureError(.invalidLimit, SettingIssue(.size, "\(size)", "must be even and between 16x16 and 7680x4320"))
        }
        if let scale = settings.scale, !Self.scales.contains(scale) {
            throw CaptureError(.invalidLimit, SettingIssue(.scale, String(format: "%g", scale), "must be between 0 and 4",
                                                           allowed: Self.scales))
        }
        if let codec = settings.audioCodec, !Self.recordingAudioCodecs.contains(codec) {
            throw Self.unsupportedAudioCodec(codec)
        }
        let ext = URL(fileURLWithPath: settings.path).pathExtension.lowercased()
        guard ["mov", "mp4", "m4v", "qt"].contains(ext) else {
            throw CaptureError(.outputProblem, "\(settings.path): recordings are fragmented MOV or MP4: name the file .mov or .mp4")
        }
        if !Muxer.canStore(encoderNamed: settings.videoCodec, inFileNamed: settings.path) {
            let codec = VideoCodec.allCases.first { $0.encoderName == settings.videoCodec }?.rawValue ?? settings.videoCodec
            throw CaptureError(.invalidLimit, SettingIssue(.codec, codec, ".\(ext) cannot hold \(codec) video: name the file .mov",
                                                           subject: settings.path))
        }
        do { try OutputPath.checkWritable(settings.path, overwrite: settings.overwrite) } catch {
            throw CaptureError(.outputProblem, writing: error)
        }
    }

    /// True for a `.mov` (or `.qt`) path, false for `.mp4`/`.m4v`.
    static func isQuickTime(_ path: String) -> Bool {
        ["mov", "qt"].contains(URL(fileURLWithPath: path).pathExtension.lowercased())
    }
}
