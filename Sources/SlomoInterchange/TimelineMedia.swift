import Foundation
import SlomoCore
import SlomoMedia

/// What an editor timeline needs to know about a source file it references: where it is, how
/// long it lasts, its picture and its sound.
public struct TimelineMedia: Hashable, Sendable {
    /// The file's absolute path.
    public var path: String
    /// The file's duration.
    public var duration: MediaTime
    /// The video frame rate, when the file has video with a known rate.
    public var frameRate: Rational?
    /// Picture width and height in pixels; 0 without video.
    public var width: Int, height: Int
    /// The first audio track's sample rate and channel count, when there is one.
    public var audioRate: Int?, audioChannels: Int?

    /// Media described by hand (tests, library users without a file at hand).
    public init(path: String, duration: MediaTime, frameRate: Rational?, width: Int = 0, height: Int = 0,
                audioRate: Int? = nil, audioChannels: Int? = nil) {
        self.path = URL(fileURLWithPath: path).standardizedFileURL.path
        self.duration = duration
        self.frameRate = frameRate
        self.width = width
        self.height = height
        self.audioRate = audioRate
        self.audioChannels = audioChannels
    }

    /// The media of an opened file; throws when the file does not say how long it is.
    public init(_ file: MediaFile) throws {
        let info = try file.sourceInfo()
        let video = file.videoStream?.video
        let audio = file.audioStreams.first?.audio
        self.init(path: file.path, duration: info.duration, frameRate: info.frameRate,
                  width: video?.width ?? 0, height: video?.height ?? 0,
                  audioRate: audio?.sampleRate, audioChannels: audio?.channels)
    }

    /// The file's URL (`file:///…`), as editors reference media.
    public var url: String { URL(fileURLWithPath: path).absoluteString }

    /// The file's name without folder or extension, for clip names.
    public var name: String { URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent }
}
