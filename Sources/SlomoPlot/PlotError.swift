import SlomoCore
import SlomoMedia

/// A plot that cannot be made or written, in one line that names the file and what is wrong
/// (`map.gif: unknown plot format '.gif'; use .png, .svg or .pdf`).
public struct PlotError: SettingError, Hashable, Sendable {
    /// What kind of problem it is, for code that reacts to it.
    public enum Kind: String, Sendable {
        /// The file name's extension names no format slomo draws.
        case unknownFormat
        /// The asked size is malformed or out of range.
        case invalidSize
        /// The plot file may not be written: it exists, its folder is missing, it is a folder.
        case unwritable
        /// Writing the plot failed (disk full, permissions, cairo's own error).
        case writeFailed
        /// The media file has nothing to plot (no video stream, fewer than two frames).
        case nothingToPlot
    }

    public let kind: Kind
    /// The file concerned: the plot file, or the media file for `.nothingToPlot`.
    public let path: String
    /// One line that says what is wrong.
    public let detail: String
    /// The command-line option that named the file (`--plot`), printed first when set.
    public var option: String?

    /// The setting that would avoid the error (`overwrite`), as data.
    public let issue: SettingIssue?

    public init(_ kind: Kind, path: String, detail: String) {
        self.kind = kind
        self.path = path
        self.detail = detail
        issue = nil
    }

    /// A plot-file error from what writing it met: the media error's detail and setting.
    init(_ kind: Kind, path: String, writing error: MediaError) {
        self.kind = kind
        self.path = path
        detail = error.detail
        issue = error.issue
    }

    /// The sentence with the option first and the setting named by `name`.
    public func text(naming name: (Setting) -> String) -> String {
        (option.map { "\($0) " } ?? "") + "\(path): " + (issue?.problem(naming: name) ?? detail)
    }

    public var description: String { text(naming: \.name) }
}
