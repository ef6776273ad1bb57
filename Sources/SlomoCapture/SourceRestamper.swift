import SlomoCore

/// Puts one source's timestamps onto the session clock.
///
/// Sources stamp with different clocks (cameras with `CLOCK_MONOTONIC`, x11grab, ALSA and
/// PulseAudio with wall-clock time, lavfi and files from zero). The first timestamp is anchored
/// at the session time the sample arrived; later ones keep the source's own spacing (so a
/// 240 fps source keeps exact 1/240 s intervals) as offsets from that anchor. When the source
/// clock jumps (wall-clock change, a restarted stream) or drifts further than `tolerance` from
/// arrival times, the mapping is re-anchored at the arrival time. The result is strictly
/// increasing; a sample without a timestamp is stamped with its arrival time.
public struct SourceRestamper: Sendable {
    /// The time base of the source's timestamps.
    public let timeBase: Rational
    /// How far (ns) mapped times may stray from arrival times before re-anchoring.
    public let tolerance: Int64
    private var anchorTicks: Int64?
    private var anchorSession: Int64 = 0
    private var last: Int64?
    /// How many times the mapping was re-anchored after a jump.
    public private(set) var reanchorCount = 0

    public init(timeBase: Rational, tolerance: Int64 = 3_000_000_000) {
        self.timeBase = timeBase
        self.tolerance = tolerance
    }

    /// The session time (ns) of a sample with source timestamp `pts` that arrived at `arrival`.
    public mutating func sessionTime(pts: Int64?, arrival: Int64) -> Int64 {
        var time: Int64
        if let pts {
            if anchorTicks == nil {
                anchorTicks = pts
                anchorSession = arrival
            }
            time = anchorSession + nanoseconds(pts - anchorTicks!)
            if abs(time - arrival) > tolerance || (last.map { time < $0 - tolerance } ?? false) {
                anchorTicks = pts
                anchorSession = arrival
                reanchorCount += 1
                time = arrival
            }
        } else {
            time = arrival
        }
        if let last, time <= last { time = last + 1 }
        last = time
        return time
    }

    /// Source ticks as nanoseconds, rounded to nearest.
    public func nanoseconds(_ ticks: Int64) -> Int64 {
        let (product, overflow) = ticks.multipliedReportingOverflow(by: timeBase.numerator * 1_000_000_000)
        if overflow { return Int64(Double(ticks) * timeBase.doubleValue * 1e9) }
        let half = timeBase.denominator / 2
        return product >= 0 ? (product + half) / timeBase.denominator : -((-product + half) / timeBase.denominator)
    }
}
