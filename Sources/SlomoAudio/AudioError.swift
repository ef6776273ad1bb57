/// The one error type of `SlomoAudio`: bad rates and algorithm names, libraries that refuse to
/// start, mismatched buffers. `description` says what is wrong and how to fix it.
public struct AudioError: Error, Hashable, Sendable, CustomStringConvertible {
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

    public init(_ kind: Kind, _ problem: String) {
        self.kind = kind
        self.problem = problem
    }

    public var description: String { problem }
}
