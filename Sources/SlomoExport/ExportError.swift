import SlomoCore

/// Why an export could not start or did not finish. Names the file or setting concerned; an
/// error about a setting's value carries it as `issue`, and what to do about it as `hint`, for
/// front ends to word.
public struct ExportError: SettingError, Hashable, Sendable {
    /// What went wrong, for a program to test.
    public enum Kind: String, Sendable {
        case noVideo, noAudio, outputIsInput, unsupportedContainer, unsupportedCodec, cancelled, invalidPlan, damagedInput
    }

    public let kind: Kind
    /// The sentence, without the hint.
    public let detail: String
    /// The setting at fault, as data, for errors about a setting's value.
    public let issue: SettingIssue?
    public let hint: Hint?

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

    public func text(naming name: (Setting) -> String) -> String { issue?.text(naming: name) ?? detail }

    public var description: String { message() }
}

extension Hint {
    /// A file with sound but no video: its sound's speed changes on its own (`slomo stretch`).
    public static let stretchSoundAlone = Hint("stretchSoundAlone", prose: "an audio stretch changes the speed of its sound alone")
}
