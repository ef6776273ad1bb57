import SlomoCore

/// The one error type of `SlomoAudio`: bad rates and algorithm names, libraries that refuse to
/// start, mismatched buffers. `description` says what is wrong and how to fix it.
public struct AudioError: SettingError, Hashable, Sendable {
    /// What went wrong, for a program to test.
    public enum Kind: String, Hashable, Sendable {
        /// Zero, negative, NaN or infinite rate.
        case invalidRate
        /// A rate outside the algorithm's range.
        case rateOutOfRange
        /// An algorithm name nobody knows.
        case unknownAlgorithm
        /// A buffer's channel count or sample rate does not match the processor's.
        case formatMismatch
        /// A C library failed to create or run its state.
        case engineFailure
        /// A time map or segment the renderer cannot render.
        case invalidTimeMap
    }

    public var kind: Kind
    public var problem: String
    /// The setting at fault, as data, for errors a different setting would avoid.
    public var issue: SettingIssue?

    public init(_ kind: Kind, _ problem: String) {
        self.kind = kind
        self.problem = problem
    }

    /// An error about a setting; its problem is the issue in prose.
    public init(_ kind: Kind, _ issue: SettingIssue) {
        self.kind = kind
        self.problem = issue.description
        self.issue = issue
    }

    public var description: String { problem }

    /// The same error said of `place` (`segment 2 (source 2-4)`), which leads the sentence.
    public func about(_ place: String) -> AudioError {
        guard var issue else { return AudioError(kind, "\(place): \(problem)") }
        issue.subject = "\(place): " + issue.head(naming: \.name)
        return AudioError(kind, issue)
    }
}
