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

extension ExportProgress {
    /// Output seconds written per second of `elapsed` wall-clock time (2 is twice real time);
    /// nil before there is any output or any elapsed time.
    public func speed(elapsed: Duration) -> Double? {
        let seconds = elapsed.doubleSeconds
        guard seconds > 0, outputTime > .zero else { return nil }
        return outputTime.doubleSeconds / seconds
    }

    /// The wall-clock time still needed at the speed so far; nil while there is no speed.
    public func remaining(elapsed: Duration) -> Duration? {
        guard let speed = speed(elapsed: elapsed) else { return nil }
        return .seconds(max(0, (outputDuration - outputTime).doubleSeconds) / speed)
    }
}

extension Duration {
    /// The duration in seconds, for display and rates (like `MediaTime.doubleSeconds`).
    public var doubleSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
