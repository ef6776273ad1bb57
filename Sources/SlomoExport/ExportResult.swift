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
}
