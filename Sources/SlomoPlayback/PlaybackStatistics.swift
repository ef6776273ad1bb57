/// What playback did, counted: reported by the observer, at the end, and in the presentation log.
public struct PlaybackStatistics: Sendable, Codable, Equatable {
    /// Pictures shown.
    public var shown = 0
    /// Pictures that were due at an earlier screen refresh but were not ready in time: late,
    /// dropped.
    public var dropped = 0
    /// Pictures that fell between two refreshes of a screen slower than the pictures (a
    /// 240 fps source on a 60 Hz screen shows one in four): never meant to be seen.
    public var skipped = 0
    /// Screen refreshes while playing, and those that showed a new picture.
    public var slots = 0
    public var slotsWithNewPicture = 0
    /// Times the sound device found no audio ready while playing.
    public var underruns = 0

    public init() {}
}

/// Where playback is, for the periodic time observer and the window title.
public struct PlayerStatus: Sendable {
    /// Output time of the item (at rate 1) being played, in seconds.
    public let time: Double
    /// The clip and its source time playing now.
    public let clip: Int
    public let sourceTime: Double
    /// The player's rate, and source frames shown per second at this point.
    public let rate: Double
    public let effectiveFrameRate: Double?
    public let algorithm: String
    /// Semitones the sound is moved by (0: the source's pitch; varispeed has none of its own).
    public let pitch: Double
    public let paused: Bool
    public let statistics: PlaybackStatistics
}

