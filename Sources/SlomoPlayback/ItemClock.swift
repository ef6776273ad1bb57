import SlomoMedia

/// The clock that drives pictures when there is no sound: item time moving at the player's
/// rate on `MonotonicClock`, held while paused.
struct ItemClock {
    private var baseTime: Double
    private var baseNanos: Int64
    private var rate: Double
    private var paused = true

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
