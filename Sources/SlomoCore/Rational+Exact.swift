/// Overflow-reporting arithmetic and exact parsing for `Rational`.
extension Rational {
    /// Parses an exact decimal (`2.5`, `-0.25`, `.5`, `3`) or a fraction (`1/4`, `30000/1001`);
    /// nil when the text is not one of those or its value, in lowest terms, does not fit in 64
    /// bits. (Every decimal `exactDecimal` writes reads back.)
    public init?(decimal text: String) {
        let trimmed = text.trimmingSpaces
        if let slash = trimmed.firstIndex(of: "/") {
            guard let numerator = Int64(trimmed[..<slash]),
                  let denominator = Int64(trimmed[trimmed.index(after: slash)...]),
                  denominator != 0, !trimmed[trimmed.index(after: slash)...].hasPrefix("+"),
                  let (n, d) = Wide.reduced(Int128(numerator), Int128(denominator)) else { return nil }
            self.init(n, d)
            return
        }
        var body = Substring(trimmed)
        var negative = false
        if body.first == "-" || body.first == "+" {
            negative = body.first == "-"
            body = body.dropFirst()
        }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        var fraction = parts.count > 1 ? parts[1] : ""
        guard !(whole.isEmpty && fraction.isEmpty),
              whole.allSatisfy(\.isASCIIDigit), fraction.allSatisfy(\.isASCIIDigit) else { return nil }
        // Read in 128 bits, then reduced: `1.000003814697265625` is 262145/262144.
        while fraction.last == "0" { fraction.removeLast() }
        guard fraction.count <= 38 else { return nil }       // 10^38 < Int128.max
        var numerator: Int128 = 0, denominator: Int128 = 1
        for digit in whole + fraction {
            let (shifted, o1) = numerator.multipliedReportingOverflow(by: 10)
            let (sum, o2) = shifted.addingReportingOverflow(Int128(digit.asciiValue! - 48))
            guard !(o1 || o2) else { return nil }
            numerator = sum
        }
        for _ in fraction { denominator *= 10 }
        self.init(wide: negative ? -numerator : numerator, denominator)
    }

    /// The fraction with denominator 10⁹ nearest `value` (in lowest terms): a value read off a
    /// curve, such as the rate at a cut inside an eased ramp. `value` must be within ±9.2·10⁹.
    public init(approximating value: Double) {
        self.init(Int64((value * 1e9).rounded()), 1_000_000_000)
    }

    // Each operation tries plain 64-bit arithmetic first (the common case, and cheap even in
    // debug builds), then exact 128-bit arithmetic reduced back to 64 bits.

    /// `self + other`, or nil when the exact result does not fit in 64 bits.
    public func addingReportingOverflow(_ other: Rational) -> Rational? {
        let (left, o1) = numerator.multipliedReportingOverflow(by: other.denominator)
        let (right, o2) = other.numerator.multipliedReportingOverflow(by: denominator)
        let (sum, o3) = left.addingReportingOverflow(right)
        let (product, o4) = denominator.multipliedReportingOverflow(by: other.denominator)
        if !(o1 || o2 || o3 || o4) { return Rational(sum, product) }
        let n = Int128(numerator) * Int128(other.denominator) + Int128(other.numerator) * Int128(denominator)
        return Rational(wide: n, Int128(denominator) * Int128(other.denominator))
    }

    /// `self - other`, or nil when the exact result does not fit in 64 bits.
    public func subtractingReportingOverflow(_ other: Rational) -> Rational? {
        guard other.numerator != .min else { return nil }
        return addingReportingOverflow(Rational(-other.numerator, other.denominator))
    }

    /// `self × other`, or nil when the exact result does not fit in 64 bits.
    public func multipliedReportingOverflow(by other: Rational) -> Rational? {
        let (n, o1) = numerator.multipliedReportingOverflow(by: other.numerator)
        let (d, o2) = denominator.multipliedReportingOverflow(by: other.denominator)
        if !(o1 || o2) { return Rational(n, d) }
        return Rational(wide: Int128(numerator) * Int128(other.numerator),
                        Int128(denominator) * Int128(other.denominator))
    }

    /// `self ÷ other`, or nil when `other` is zero or the exact result does not fit.
    public func dividedReportingOverflow(by other: Rational) -> Rational? {
        guard other.numerator != 0, other.numerator != .min else { return nil }
        return multipliedReportingOverflow(by: Rational(other.denominator, other.numerator))
    }

    /// The exact decimal form (`"0.25"`, `"-3"`, `"0.001"`), or nil when the value has no
    /// finite decimal expansion of at most 18 fraction digits (1/3).
    public static func exactDecimal(_ value: Rational) -> String? {
        var rest = value.denominator, digits = 0
        while rest % 10 == 0 { rest /= 10; digits += 1 }
        while rest % 2 == 0 { rest /= 2; digits += 1 }
        while rest % 5 == 0 { rest /= 5; digits += 1 }
        guard rest == 1, digits <= 18 else { return nil }
        return MediaTime.decimal(value, fractionDigits: digits, trimZeros: true)
    }

    /// `n/d` reduced, or nil when it does not fit in 64 bits.
    init?(wide numerator: Int128, _ denominator: Int128) {
        guard let (n, d) = Wide.reduced(numerator, denominator) else { return nil }
        self.init(n, d)
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
