import SlomoCore
import SlomoMedia

/// Why a capture could not start or stopped: names the device, file or setting concerned, and
/// where it can, the fix; an error about a setting's value carries it as `issue`.
public struct CaptureError: SettingError, Hashable, Sendable {
    /// What kind of problem it is, for code that reacts to it.
    public enum Kind: String, Sendable, Codable {
        case invalidInput, invalidLimit, deviceNotFound, deviceBusy, unsupportedFormat
        /// A camera control asked for that the camera does not have, or a value outside its range.
        case invalidControl
        case unreachable, outputProblem, noDiskSpace, internalError
    }

    public let kind: Kind
    public let description: String
    /// The setting at fault, as data, for errors about a setting's value.
    public let issue: SettingIssue?

    public init(_ description: String) {
        self.init(.internalError, description)
    }

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
        issue = nil
    }

    /// An error about a setting; its description is the issue in prose.
    public init(_ kind: Kind, _ issue: SettingIssue) {
        self.kind = kind
        self.description = issue.description
        self.issue = issue
    }

    /// What creating or checking the output file met (it exists: the `overwrite` setting).
    init(_ kind: Kind, writing error: MediaError) {
        self.kind = kind
        description = error.description
        issue = error.issue
    }
}
