import SlomoCore

/// A sharp onset in the sound: a click, a crack, an impact. Its time is where the sound's 1 ms
/// envelope first rises above 20 dB below the peak that follows (within 20 ms), to a quarter
/// of a millisecond.
public struct SoundOnset: Sendable, Hashable, Codable {
    /// When the onset begins, from the file's start.
    public var time: MediaTime
    /// How far the envelope rose within 20 ms, in dB: 15 at the least; a hard impact on a quiet
    /// scene, 40 or more.
    public var rise: Double
    /// The envelope's peak after the onset, in dBFS.
    public var peak: Double
}
