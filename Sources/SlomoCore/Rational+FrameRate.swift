/// Frame-rate parsing for constant-frame-rate exports.
extension Rational {
    /// Parses a frame rate as users write it: `30`, `30000/1001`, or a decimal. The decimals
    /// everyone uses for the NTSC rates mean the exact NTSC fractions: `29.97` is 30000/1001,
    /// `59.94` is 60000/1001, `23.976` is 24000/1001, `119.88` is 120000/1001 (any decimal
    /// within 0.005 of N·1000/1001 for a whole N). Nil when the text is not a number.
    public init?(frameRate text: String) {
        guard let exact = Rational(decimal: text) else { return nil }
        guard exact.denominator != 1, exact.numerator > 0, !text.contains("/") else {
            self = exact
            return
        }
        let whole = (exact.doubleValue * 1001 / 1000).rounded()
        if whole >= 1, whole < 1_000_000, abs(whole * 1000 / 1001 - exact.doubleValue) < 0.005 {
            self = Rational(Int64(whole) * 1000, 1001)
        } else {
            self = exact
        }
    }
}
