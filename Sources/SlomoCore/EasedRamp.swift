/// A ramp whose 1/rate follows a non-linear `Ease`, evaluated for every segment that is part of
/// it from one anchor: the ramp's source start and the output time there. All parts of one
/// ramp (a ramp shared by two touching sections is two segments) therefore use one function,
/// so their output ranges tile exactly, and a segment cut for playback keeps it too.
///
/// With `u = (s − sourceStart)/length`, output time is
/// `(outputStart + length·(k0·u + change·I(u))) / divisor`, `I` the ease's integral; the offset
/// is computed in `Double` (relative error ~1e-16 of at most the ramp's output length) and
/// rounded to the nanosecond, the division by `divisor` (a map played faster, `scaled(by:)`)
/// is exact. The inverse solves that increasing function by Newton's method in a bracket.
struct EasedRamp: Hashable, Sendable {
    /// Source time where the ramp starts (`u = 0`).
    let sourceStart: MediaTime
    /// The ramp's source length in seconds.
    let length: Double
    /// Output time at `sourceStart`, before `divisor`.
    let outputStart: MediaTime
    /// 1/rate at the start, and its change over the ramp.
    let k0: Double, change: Double
    /// The curve of the change.
    let ease: Ease
    /// Output times are divided by this (1 unless the map is played faster).
    private(set) var divisor: Rational

    init(sourceStart: MediaTime, length: MediaTime, outputStart: MediaTime, from k0: Rational, to k1: Rational,
         ease: Ease, divisor: Rational = Rational(1)) {
        self.sourceStart = sourceStart
        self.length = length.doubleSeconds
        self.outputStart = outputStart
        self.k0 = k0.doubleValue
        self.change = k1.doubleValue - k0.doubleValue
        self.ease = ease
        self.divisor = divisor
    }

    /// The same ramp played `factor` times faster.
    func scaled(by factor: Rational) -> EasedRamp? {
        guard let product = divisor.multipliedReportingOverflow(by: factor) else { return nil }
        var copy = self
        copy.divisor = product
        return copy
    }

    private var divisorValue: Double { divisor.doubleValue }

    /// The fraction of the ramp's source time elapsed at `sourceTime`.
    func fraction(at sourceTime: MediaTime) -> Double {
        ((try? sourceTime.subtracting(sourceStart))?.doubleSeconds
            ?? sourceTime.doubleSeconds - sourceStart.doubleSeconds) / length
    }

    /// Output seconds after `outputStart` (before `divisor`) at fraction `u`.
    private func offset(at u: Double) -> Double {
        length * (k0 * u + change * ease.integral(to: u))
    }

    /// 1/rate at `sourceTime`.
    func stretch(at sourceTime: MediaTime) -> Double {
        (k0 + change * ease.fraction(at: fraction(at: sourceTime))) / divisorValue
    }

    /// The output time of `sourceTime`.
    func outputTime(at sourceTime: MediaTime) -> MediaTime {
        let before = outputStart + .nanoseconds(offset(at: fraction(at: sourceTime)))
        return (try? before.divided(by: divisor)) ?? .nanoseconds(before.doubleSeconds / divisorValue)
    }

    /// The source time, inside `range`, that plays at `outputTime`.
    func sourceTime(at outputTime: MediaTime, in range: TimeRange) -> MediaTime {
        let undivided = (try? outputTime.multiplied(by: divisor)) ?? .nanoseconds(outputTime.doubleSeconds * divisorValue)
        let target = ((try? undivided.subtracting(outputStart))?.doubleSeconds
            ?? undivided.doubleSeconds - outputStart.doubleSeconds)
        var low = fraction(at: range.start), high = fraction(at: range.end)
        var u = (low + high) / 2
        for _ in 0..<100 {
            let error = offset(at: u) - target
            if abs(error) < 1e-13 { break }
            if error < 0 { low = u } else { high = u }
            let slope = length * (k0 + change * ease.fraction(at: u))
            let next = u - error / slope
            u = next > low && next < high ? next : (low + high) / 2
            if high - low < 1e-15 { break }
        }
        let time = (try? sourceStart.adding(.nanoseconds(u * length))) ?? .nanoseconds(sourceStart.doubleSeconds + u * length)
        return MediaTime.max(range.start, MediaTime.min(time, range.end))
    }
}
