import SlomoCore
import SlomoMedia

/// Why a capture could not start or stopped: names the device, file or setting concerned, and
/// where it can, the fix; an error about a setting's value carries it as `issue`, and what to
/// do about a missing device or control as `hint`.
public struct CaptureError: SettingError, Hashable, Sendable {
    /// What kind of problem it is, for code that reacts to it.
    public enum Kind: String, Sendable, Codable {
        case invalidInput, invalidLimit, deviceNotFound, deviceBusy, unsupportedFormat
        /// A camera control asked for that the camera does not have, or a value outside its range.
        case invalidControl
        case unreachable, outputProblem, noDiskSpace, internalError
    }

    public let kind: Kind
    /// The sentence, without the hint.
    public let detail: String
    /// The setting at fault, as data, for errors about a setting's value.
    public let issue: SettingIssue?
    public let hint: Hint?

    public init(_ detail: String) {
        self.init(.internalError, detail)
    }

    public init(_ kind: Kind, _ detail: String, hint: Hint? = nil) {
        self.kind = kind
        self.detail = detail
        issue = nil
        self.hint = hint
    }

    /// An error about a setting; its detail is the issue in prose.
    public init(_ kind: Kind, _ issue: SettingIssue) {
        self.kind = kind
        detail = issue.description
        self.issue = issue
        hint = nil
    }

    /// What creating or checking the output file met (it exists: the `overwrite` setting).
    init(_ kind: Kind, writing error: MediaError) {
        self.kind = kind
        detail = error.description
        issue = error.issue
        hint = nil
    }

    public func text(naming name: (Setting) -> String) -> String { issue?.text(naming: name) ?? detail }

    public var description: String { message() }
}

extension Hint {
    /// A device that is not there: the list of devices names those that are (`slomo devices`).
    public static let listDevices = Hint("listDevices", prose: "the device list names those there are")
    /// A camera control that is not there or not understood: the camera's control listing
    /// names them (`slomo devices --controls`).
    public static let listControls = Hint("listControls", prose: "the camera's control listing names them")
}
