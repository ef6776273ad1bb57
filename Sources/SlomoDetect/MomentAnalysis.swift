import SlomoCore

/// What `MomentDetector` measured in a clip, as data (so that a script can make its own choice)
/// and the moments it chose from it, strongest first.
public struct MomentAnalysis: Sendable, Codable {
    /// The analysed file.
    public var path: String
    /// The clip's duration, when known.
    public var duration: MediaTime?
    /// The video's frames.
    public var frames: Int
    /// The motion measured, in presentation order: every frame around the moments, elsewhere
    /// (with B-frames) only the pictures others refer to, each scaled to one frame interval.
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

    /// The smoothed activity measured nearest to `time`; 0 without motion measured.
    public func smoothedActivity(at time: MediaTime) -> Double {
        let activity = smoothedActivity
        let distance = { (index: Int) in abs((motion[index].time - time).doubleSeconds) }
        return motion.indices.min { distance($0) < distance($1) }.map { activity[$0] } ?? 0
    }
}
