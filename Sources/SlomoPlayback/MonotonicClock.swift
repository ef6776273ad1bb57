import Glibc

/// The clock that drives pictures when there is no sound: item time moving at the player's
/// rate on CLOCK_MONOTONIC, held while paused.
struct MonotonicClock {
    private var baseTime: Double
    private var baseNanos: UInt64
    private var rate: Double
    private var paused = true

    /// CLOCK_MONOTONIC in nanoseconds: the one time source of playback (wall-clock times in
    /// the presentation log, refresh pacing, the sound device's callbacks).
    static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    init(time: Double, rate: Double) {
        baseTime = time
        self.rate = rate
        baseNanos = MonotonicClock.nanoseconds()
    }

    func time() -> Double {
        paused ? baseTime : baseTime + Double(MonotonicClock.nanoseconds() - baseNanos) * 1e-9 * rate
    }

    mutating func set(_ time: Double) {
        baseTime = time
        baseNanos = MonotonicClock.nanoseconds()
    }

    mutating func rebase(rate: Double) {
        set(time())
        self.rate = rate
    }

    mutating func setPaused(_ value: Bool) {
        set(time())
        paused = value
    }
}
