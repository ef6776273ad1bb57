/// How a constant-frame-rate export fills an output frame slot from the source frames. The raw
/// values are the names used on the command line, in edit scripts and in plans.
public enum FrameChoice: String, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The source frame nearest to the slot's source time.
    case nearest
    /// A blend of the two source frames around the slot's source time.
    case blend
    /// A motion-interpolated frame.
    case interpolate
    /// `nearest` where there are enough source frames, `blend` where there are not.
    case auto

    /// Parses a CLI name; throws `.invalidValue` listing the valid names.
    public init(parsing text: String) throws {
        guard let choice = FrameChoice(rawValue: text) else {
            throw TimeModelError(.invalidValue, "unknown frame choice '\(text)'; expected "
                                 + FrameChoice.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self = choice
    }

    /// The CLI name.
    public var description: String { rawValue }
}
