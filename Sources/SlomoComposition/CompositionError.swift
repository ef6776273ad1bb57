/// Why a composition's sound or pictures could not be rendered, for every front end that
/// renders one (an export, the player). Names the file concerned.
public struct CompositionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, for a program to test.
    public enum Kind: String, Sendable {
        /// No clip has sound, or a clip's sound holds no samples.
        case noAudio
    }

    /// What went wrong.
    public let kind: Kind
    /// What went wrong, for people.
    public let description: String

    /// An error of `kind`, described.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
