import SlomoCore

/// What an export wrote.
public struct ExportResult: Sendable, Hashable {
    /// The finished file.
    public var outputPath: String
    /// Output duration according to the time map.
    public var outputDuration: MediaTime
    /// Video packets copied (passthrough) or frames encoded (CFR).
    public var videoFrames: Int
    /// Audio tracks rendered.
    public var audioTracks: Int
    /// Packets whose DTS had to be nudged to stay strictly increasing; 0 unless a ramp's
    /// rounding to the microsecond made two equal.
    public var nudgedPackets: Int
    /// Fallbacks taken without failing, one line each (e.g. "clip.mov: interpolate: blending
    /// instead, …" for a picture format optical flow does not take). Empty when none.
    public var warnings: [String] = []
    /// What decoding found damaged in the sources, one line each ("clip.mov: video: 3 packets
    /// could not be decoded cleanly between 2.10 s and 2.40 s (file damaged?)"). Damage found by
    /// opening a source is its `MediaFile.damage`. Empty when none (or with `strict`, which
    /// refuses a damaged source instead).
    public var damage: [String] = []
}
