import SlomoCore

/// A problem a user can act on that is not an FFmpeg call failing: a media file that is
/// missing, unreadable or damaged, an output that cannot be written, a library that cannot be
/// loaded, an argument or option slomo refuses. One line that names the file when there is one
/// (`clip.mov: not a media file (moov atom not found)`). FFmpeg's own failures are `FFmpegError`.
public struct MediaError: SettingError, Hashable, Sendable {
    /// What kind of problem it is, for code that reacts to it.
    public enum Kind: String, Sendable {
        case notFound, notAFile, empty, unreadable, noStreams
        case unsupportedCodec, damaged, outputExists, outputFolderMissing, writeFailed
        /// A shared library slomo opens on first use (libavfilter, libavdevice) cannot be loaded.
        case libraryUnavailable
        /// Values that do not go together, such as two pictures of different sizes to blend.
        case invalidArgument
        /// An option (of an encoder, of a muxer) that the component does not have.
        case unknownOption
    }

    public let kind: Kind
    /// The file concerned, as the user named it; nil when no file is concerned.
    public let path: String?
    /// One line that says what is wrong.
    public let detail: String
    /// The setting that would avoid the error (`overwrite` for an existing output), as data.
    public let issue: SettingIssue?

    public init(_ kind: Kind, path: String? = nil, detail: String) {
        self.kind = kind
        self.path = path
        self.detail = detail
        issue = nil
    }

    /// An error about `path` that a setting would avoid; the detail is the issue in prose.
    public init(_ kind: Kind, path: String, issue: SettingIssue) {
        self.kind = kind
        self.path = path
        self.issue = SettingIssue(issue.setting, issue.value, issue.problem, subject: path)
        detail = issue.problem(naming: \.name)
    }

    /// `path: detail`, or the detail alone when no file is concerned.
    public var description: String { path.map { "\($0): \(detail)" } ?? detail }
}
