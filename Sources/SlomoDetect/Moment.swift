import SlomoCore

/// A candidate moment of a clip: when it happens (to the source frame), how strongly, what found
/// it, and a section around it to slow.
public struct Moment: Sendable, Hashable, Codable {
    /// What found a moment.
    public enum Evidence: String, Sendable, Hashable, Codable {
        /// A peak of local motion (the camera's own movement taken out).
        case motion
        /// A sharp onset in the sound.
        case sound
    }

    /// The presentation time of the source frame the moment happens in, from the file's start
    /// (for a file without video, the sound onset itself).
    public var time: MediaTime
    /// That frame's number in presentation order, from 0; nil for a file without video.
    public var frame: Int?
    /// How strong the moment is: up to 1 for motion or sound alone (relative to the clip's
    /// strongest motion, and a 40 dB rise of the sound), up to 2 when both agree.
    public var score: Double
    /// What found it, motion first.
    public var foundBy: [Evidence]
    /// The sound onset that belongs to it, when the sound found it.
    public var soundOnset: MediaTime?
    /// A section around it to slow: from `before` ahead of it to `after` past it, within the clip.
    public var section: TimeRange
}
