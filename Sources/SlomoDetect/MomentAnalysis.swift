import SlomoCore

/// What `MomentDetector` measured in a clip, as data (so that a script can make its own choice)
/// and the moments it chose from it, strongest first.
public struct MomentAnalysis: Sendable, Codable {
    /// The analysed file.
    public var path: String
    /// The clip's duration, when known.
    public var duration: MediaTime?
    /// Every frame's motion, in presentation order.
    public var motion: [FrameMotion]
    /// The sharp onsets of the sound, in time order.
    public var onsets: [SoundOnset]
    /// Scene cuts (and flashes): frames where nearly the whole picture changed at once. Never
    /// reported as action.
    public var cuts: [MediaTime]
    /// The candidate moments, strongest first; empty when nothing moved or sounded.
    public var moments: [Moment]

    /// Each frame's activity averaged over a sixtieth of a second, as the moments were picked
    /// from it (what `slomo detect --plot` draws).
    public var smoothedActivity: [Double] { MomentPicker.smoothed(motion) }
}
