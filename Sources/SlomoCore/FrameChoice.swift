/// How a constant-frame-rate export fills an output frame slot from the source frames. The raw
/// values are the names used on the command line, in edit scripts and in plans.
public enum FrameChoice: String, CaseIterable, Hashable, Sendable, Codable, NamedChoice {
    /// The source frame nearest to the slot's source time.
    case nearest
    /// A blend of the two source frames around the slot's source time.
    case blend
    /// A frame built by optical flow from the two source frames around the slot's source time,
    /// where a section lacks source frames (`nearest` elsewhere).
    case interpolate
    /// `nearest` where there are enough source frames, `interpolate` where there are not
    /// (`blend` when the source frame rate is unknown).
    case auto

    public static let choiceName = "frame choice"
}
