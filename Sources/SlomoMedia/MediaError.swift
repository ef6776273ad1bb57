/// A problem with a media file that a user can act on: it names the file and says what is
/// wrong with it in one line (`clip.mov: not a media file (moov atom not found)`).
public struct MediaError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is, for code that reacts to it.
    public enum Kind: String, Sendable {
        case notFound, notAFile, empty, unreadable, noStreams
        case unsupportedCodec, damaged, outputExists, outputFolderMissing, writeFailed
    }

    public let kind: Kind
    /// The file concerned, as the user named it.
    public let path: String
    /// One line that says what is wrong.
    public let detail: String

    public init(_ kind: Kind, path: String, detail: String) {
        self.kind = kind
        self.path = path
        self.detail = detail
    }

    public var description: String { "\(path): \(detail)" }
}
