import SlomoCore

/// How far an export has come, in output time.
public struct ExportProgress: Sendable, Hashable {
    /// Output time written so far.
    public var outputTime: MediaTime
    /// Total output duration.
    public var outputDuration: MediaTime
    /// Video packets (passthrough) or frames (CFR) written so far.
    public var videoFrames: Int
    /// A short description of the phase, e.g. "copying video, rendering audio (spectral)".
    public var phase: String

    /// 0…1.
    public var fraction: Double {
        guard outputDuration > .zero else { return 1 }
        return min(1, max(0, outputTime.doubleSeconds / outputDuration.doubleSeconds))
    }
}
