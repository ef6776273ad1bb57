import SlomoCore

extension Rational {
    /// The simplest fraction within `tolerance` of `value` whose denominator is at most
    /// `maximumDenominator` (continued fractions): `0.25` → 1/4, `59.94005994005994` →
    /// 60000/1001. Nil for values that are not finite or do not fit.
    static func approximating(_ value: Double, maximumDenominator: Int64 = 1_000_000,
                              tolerance: Double = 1e-9) -> Rational? {
        guard value.isFinite, abs(value) < 1e12 else { return nil }
        var (h0, h1): (Int64, Int64) = (0, 1), (k0, k1): (Int64, Int64) = (1, 0)
        var rest = value
        for _ in 0..<64 {
            let whole = rest.rounded(.down)
            guard let a = Int64(exactly: whole) else { return nil }
            let (h2, k2) = (a * h1 + h0, a * k1 + k0)
            if k2 > maximumDenominator { break }
            (h0, h1, k0, k1) = (h1, h2, k1, k2)
            let fraction = rest - whole
            if abs(Double(h1) / Double(k1) - value) <= tolerance * max(1, abs(value)) || fraction < 1e-15 { break }
            rest = 1 / fraction
        }
        guard k1 > 0, abs(Double(h1) / Double(k1) - value) <= tolerance * max(1, abs(value)) else { return nil }
        return Rational(h1, k1)
    }
}
