/// `y = x·slope + offset` over exact times: the whole of a constant-rate segment, forward
/// (slope 1/rate) or inverse (slope rate). Evaluated without allocation in 64-bit integers,
/// or 128-bit ones when those overflow, and reduced once; when the exact result does not fit
/// in 64 bits (absurd timescales) it is rounded to the nearest nanosecond instead.
struct Affine: Hashable, Sendable {
    let slope: Rational
    let offset: Rational

    /// The affine map through `(x0, y0)` with `slope`; nil when its offset does not fit.
    init?(through x0: MediaTime, _ y0: MediaTime, slope: Rational) {
        guard let product = x0.seconds.multipliedReportingOverflow(by: slope),
              let offset = y0.seconds.subtractingReportingOverflow(product) else { return nil }
        self.slope = slope
        self.offset = offset
    }

    func callAsFunction(_ x: MediaTime) -> MediaTime {
        // x·sn/sd + on/od = (v·sn·od + on·ts·sd) / (ts·sd·od), with x = v/ts; first in 64 bits.
        let (vs, f1) = x.value.multipliedReportingOverflow(by: slope.numerator)
        let (a64, f2) = vs.multipliedReportingOverflow(by: offset.denominator)
        let (tsd64, f3) = x.timescale.multipliedReportingOverflow(by: slope.denominator)
        let (b64, f4) = offset.numerator.multipliedReportingOverflow(by: tsd64)
        let (n64, f5) = a64.addingReportingOverflow(b64)
        let (d64, f6) = tsd64.multipliedReportingOverflow(by: offset.denominator)
        if !(f1 || f2 || f3 || f4 || f5 || f6) {
            let g = Swift.max(Rational.gcd(n64, d64), 1)
            return MediaTime(value: n64 / g, timescale: d64 / g)
        }
        let tsd = Int128(x.timescale) * Int128(slope.denominator)
        let (a, o1) = (Int128(x.value) * Int128(slope.numerator))
            .multipliedReportingOverflow(by: Int128(offset.denominator))
        let (b, o2) = Int128(offset.numerator).multipliedReportingOverflow(by: tsd)
        let (numerator, o3) = a.addingReportingOverflow(b)
        let (denominator, o4) = tsd.multipliedReportingOverflow(by: Int128(offset.denominator))
        if !(o1 || o2 || o3 || o4), let (n, d) = Wide.reduced(numerator, denominator) {
            return MediaTime(value: n, timescale: d)
        }
        return MediaTime.nanoseconds(x.doubleSeconds * slope.doubleValue + offset.doubleValue)
    }
}

extension MediaTime {
    /// `seconds` rounded to the nearest nanosecond (clamped to the representable range): the
    /// fallback where an exact result does not fit, and the result of inverting a ramp.
    static func nanoseconds(_ seconds: Double) -> MediaTime {
        let ticks = (seconds * 1e9).rounded()
        guard ticks.isFinite else { return MediaTime(value: seconds < 0 ? .min : .max, timescale: 1) }
        let clamped = Swift.min(Swift.max(ticks, -9.2e18), 9.2e18)
        return MediaTime(value: Int64(clamped), timescale: 1_000_000_000)
    }
}
