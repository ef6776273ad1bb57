/// The one error type of the time model: bad times, rates, sections, compositions and edit
/// scripts all throw it.
///
/// `kind` is for code (tests, exit codes); `description` is for people and names the input
/// that failed (`subject`: the section text, the option, or the path inside an edit script
/// such as `clips[1].sections[0].rate`) and the problem.
public struct TimeModelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, independent of the wording of the message.
    public enum Kind: String, Hashable, Sendable {
        /// An exact result does not fit in 64-bit integers.
        case overflow
        /// A number, time, rate or section could not be parsed.
        case unparseable
        /// A range whose start is not before its end, or a duration ≤ 0 where one is required.
        case emptyRange
        /// A rate ≤ 0.
        case nonPositiveRate
        /// A rate outside `Rate.minimum … Rate.maximum` (1/32 … 32).
        case rateOutOfRange
        /// Two sections, or a section and a clip boundary, overlap.
        case overlap
        /// A section or range reaches past the end of its clip.
        case pastEnd
        /// Ramp-in plus ramp-out are longer than their section.
        case rampTooLong
        /// A value that is well-formed but not allowed (a frame number without a frame rate, …).
        case invalidValue
        /// An edit script has a key the schema does not know.
        case unknownKey
        /// An edit script lacks a required key.
        case missingKey
        /// An edit script has a value of the wrong type.
        case wrongType
        /// An edit script declares a version this build cannot read.
        case unsupportedVersion
        /// A file named by the user does not exist or cannot be read.
        case missingFile
    }

    /// What went wrong.
    public var kind: Kind
    /// The input that failed: section text, option, file or document path; nil if none.
    public var subject: String?
    /// A sentence describing the problem (and where possible the fix).
    public var problem: String
    /// The section the error is about, when it is about one (kept by `about(_:)`).
    public var section: SectionOrigin?
    /// The line of the document's text the problem is on, when only the text shows it (a key
    /// given twice), counting from 1.
    public var line: Int?

    /// Creates an error of `kind` about `subject`.
    public init(_ kind: Kind, _ problem: String, subject: String? = nil) {
        self.kind = kind
        self.problem = problem
        self.subject = subject
    }

    /// Creates an error of `kind` about a section, named by its origin.
    public init(_ kind: Kind, _ problem: String, section: SectionOrigin) {
        self.init(kind, problem, subject: section.description)
        self.section = section
    }

    /// `"section '2-4x0': rate must be greater than 0"`, or just the problem without a subject.
    public var description: String {
        guard let subject else { return problem }
        return "\(subject): \(problem)"
    }

    /// The same error, with `subject` set when it had none, or prefixed with `outer` when it
    /// had one (`"section '2-4x0'"` + `"rate"`).
    public func about(_ outer: String) -> TimeModelError {
        var copy = self
        copy.subject = subject.map { "\(outer): \($0)" } ?? outer
        return copy
    }

    /// The same error found in a document at `path` (an edit script, a place in one): named
    /// like `about(_:)`, and a section it is about is the document's, not syntax a caller typed.
    public func inDocument(_ path: String) -> TimeModelError {
        var copy = about(path)
        if copy.section != nil { copy.section = .document(copy.subject ?? path) }
        return copy
    }

    /// Runs `body`, giving its errors that have no subject the document path `path`.
    public static func located<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as TimeModelError where error.subject == nil {
            throw error.about(path)
        }
    }
}
