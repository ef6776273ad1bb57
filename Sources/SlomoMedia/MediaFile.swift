import Foundation
import SlomoCore

/// What is in a media file: its container, duration, metadata and streams, read once when the
/// file is opened. Codable: its JSON form is `slomo inspect --json` (docs/inspect-json.md).
public struct MediaFile: Codable, Hashable, Sendable {
    /// The version of this schema; it changes only when a field changes meaning or goes away.
    public var schemaVersion = 2
    /// The path the file was opened with.
    public var path: String
    /// The container, e.g. `mov,mp4,m4a,3gp,3g2,mj2` with its long name.
    public var container: Container
    /// The container's duration, when it declares one.
    public var duration: MediaTime?
    /// The container's start time (the earliest timestamp of any stream), when known.
    public var startTime: MediaTime?
    /// Overall bit rate in bits per second, when known.
    public var bitRate: Int?
    /// Container-level tags (title, creation time, `com.android.capture.fps`, …).
    public var metadata: [String: String]
    /// The frame rate a phone says it captured at (`com.android.capture.fps` and similar tags).
    public var captureFrameRate: Double?
    /// Every stream, in container order.
    public var streams: [StreamInfo]
    /// What is damaged in the file though it opens (a truncated file, a broken box structure;
    /// after `inspect(path:measureFrames:verify:)`, also data that does not decode cleanly);
    /// nil when nothing is.
    public var damage: [Damage]?
    /// After `inspect(path:measureFrames:verify:)` with `verify`: what was decoded and the
    /// verdict; nil otherwise.
    public var verification: Verification?

    /// `damage` said for people, one line each: `path: video ends at …`.
    public var damageWarnings: [String] { (damage ?? []).map { "\(path): \($0.message)" } }

    /// Opens the file, reads what is in it and closes it again; a file this process has read
    /// before and that has not changed since is not read again. A WAV file that `WAVFile`
    /// takes is read without FFmpeg, with the same result.
    public init(path: String) throws(MediaError) {
        if let known = MediaFileCache.file(at: path) {
            self = known
        } else if let wav = WAVFile(path: path) {
            self = MediaFile(wav: wav)
            MediaFileCache.remember(self)
        } else {
            self = try Demuxer(path: path).file
        }
    }

    init(path: String, container: Container, duration: MediaTime?, startTime: MediaTime?, bitRate: Int?,
         metadata: [String: String], streams: [StreamInfo]) {
        self.path = path
        self.container = container
        self.duration = duration
        self.startTime = startTime
        self.bitRate = bitRate
        self.metadata = metadata
        self.captureFrameRate = MediaFile.captureFrameRateKeys.lazy
            .compactMap { metadata[$0].flatMap(Double.init) }.first
        self.streams = streams
    }

    /// Tags in which phones record the rate a high-frame-rate clip was captured at.
    static let captureFrameRateKeys = ["com.android.capture.fps", "com.apple.quicktime.capture.fps"]

    /// The first video stream, the one slomo retimes.
    public var videoStream: StreamInfo? { streams.first { $0.kind == .video && !$0.isAttachedPicture } }
    /// The audio streams, in container order.
    public var audioStreams: [StreamInfo] { streams.filter { $0.kind == .audio } }
}

/// A container format as FFmpeg names it.
public struct Container: Codable, Hashable, Sendable {
    /// FFmpeg's short name(s), e.g. `mov,mp4,m4a,3gp,3g2,mj2`.
    public var name: String
    /// FFmpeg's descriptive name, e.g. `QuickTime / MOV`.
    public var longName: String
}

extension MediaFile {
    /// The JSON form (`slomo inspect --json`): pretty-printed with sorted keys.
    public func jsonText() throws -> String {
        String(decoding: try Self.jsonEncoder.encode(self), as: UTF8.self)
    }

    /// The encoder of `jsonText()`, for documents that extend it.
    public static var jsonEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
