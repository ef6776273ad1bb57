import SlomoCore

/// Why an export could not start or did not finish. Names the file or setting concerned; an
/// error about a setting's value carries it as `issue`, for front ends to word.
public struct ExportError: SettingError, Hashable, Sendable {
    /// What went wrong, for a program to test.
    public enum Kind: String, Sendable {
        case noVideo, noAudio, outputIsInput, unsupportedContainer, unsupportedCodec, cancelled, invalidPlan, damagedInput
    }

    public let kind: Kind
    public let description: String
    /// The setting at fault, as data, for errors about a setting's value.
    public let issue: SettingIssue?

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
}
