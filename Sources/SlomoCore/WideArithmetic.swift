/// 128-bit helpers behind the exact arithmetic of `MediaTime`, `Rational` and `TimeMap`:
/// products of two 64-bit values never overflow in 128 bits, and results are reduced and
/// checked to fit back into 64 bits once, at the end.
enum Wide {
    /// Greatest common divisor of the magnitudes (0 when both are 0). Uses 64-bit hardware
    /// division when both fit, which is the common case and keeps the time map fast.
    static func gcd(_ a: Int128, _ b: Int128) -> Int128 {
        var x = a.magnitude, y = b.magnitude
        if x <= UInt128(UInt64.max) && y <= UInt128(UInt64.max) {
            var x64 = UInt64(x), y64 = UInt64(y)
            while y64 != 0 { (x64, y64) = (y64, x64 % y64) }
            return Int128(x64)
        }
        while y != 0 { (x, y) = (y, x % y) }
        return Int128(x)
    }

    /// `numerator / denominator` rounded as asked; `denominator` must be positive.
    static func divide(_ numerator: Int128, _ denominator: Int128,
                       rounding: MediaTime.Rounding) -> Int128 {
        precondition(denominator > 0)
        let quotient = numerator / denominator          // truncates toward zero
        let remainder = numerator % denominator         // same sign as numerator
        if remainder == 0 { return quotient }
        switch rounding {
        case .towardZero:
            return quotient
        case .down:
            return numerator < 0 ? quotient - 1 : quotient
        case .up:
            return numerator < 0 ? quotient : quotient + 1
        case .nearest:
            // Half away from zero, like FFmpeg's AV_ROUND_NEAR_INF.
            let twice = remainder.magnitude * 2
            guard twice >= denominator.magnitude else { return quotient }
            return numerator < 0 ? quotient - 1 : quotient + 1
        }
    }

    /// `numerator/denominator` in lowest terms as two `Int64`s with a positive denominator,
    /// or nil when it does not fit. `denominator` must not be zero.
    static func reduced(_ numerator: Int128, _ denominator: Int128) -> (Int64, Int64)? {
        precondition(denominator != 0)
        var n = numerator, d = denominator
        if d < 0 { n = -n; d = -d }
        let g = gcd(n, d)
        if g > 1 { n /= g; d /= g }
        guard let n64 = Int64(exactly: n), let d64 = Int64(exactly: d) else { return nil }
        return (n64, d64)
    }
}
