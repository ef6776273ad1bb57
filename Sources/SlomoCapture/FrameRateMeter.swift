/// Measures the frame rate of a source over about the last second, from readings of how many
/// frames it has delivered so far. Not thread-safe: its owner locks.
struct FrameRateMeter {
    private var readings: [(time: Int64, frames: Int)] = []

    /// Frames per second since the oldest reading of the last second, given that `frames`
    /// had been delivered at `time` (nanoseconds); nil until readings span 100 ms.
    mutating func rate(frames: Int, at time: Int64) -> Double? {
        readings.append((time, frames))
        while let first = readings.first, time - first.time > 1_000_000_000, readings.count > 2 { readings.removeFirst() }
        guard let first = readings.first, time - first.time > 100_000_000 else { return nil }
        return Double(frames - first.frames) / (Double(time - first.time) / 1e9)
    }
}
