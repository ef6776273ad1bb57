/// Why playback could not start or go on.
public struct PlaybackError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, for callers that react to it.
    public enum Kind: Sendable {
        /// No window can open (no display, or SDL's video driver failed).
        case noDisplay
        /// No sound device could open.
        case noSoundDevice
        /// The item has neither video to show nor audio to play.
        case nothingToPlay
        /// Decoding or rendering failed while playing.
        case failed
    }

    public let kind: Kind
    /// What happened, in words.
    public let problem: String

    public init(_ kind: Kind, _ problem: String) {
        self.kind = kind
        self.problem = problem
    }

    public var description: String { problem }
}
