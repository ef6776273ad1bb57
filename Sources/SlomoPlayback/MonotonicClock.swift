/// The clock that drives pictures when there is no sound: item time moving at the player's
/// rate on CLOCK_MONOTONIC, held while paused.
struct MonotonicClock {
    private var baseTime: Double
    private var baseNanos: UInt64
    private var rate: Double
    private var paused = true

    init(time: Double, rate: Double) {
        baseTime = time
        self.rate = rate
        baseNanos = AudioRing.nanos()
    }

    func time() -> Double {
        paused ? baseTime : baseTime + Double(AudioRing.nanos() - baseNanos) * 1e-9 * rate
    }

    mutating func set(_ time: Double) {
        baseTime = time
        baseNanos = AudioRing.nanos()
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
