/// An exact fraction of two 64-bit integers, always stored in lowest terms with a positive
/// denominator: frame rates (30000/1001), time bases (1/90000) and playback rates (1/4).
///
/// Arithmetic traps on overflow rather than losing precision; use the `…ReportingOverflow`
/// forms of callers where input can be hostile.
public struct Rational: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    public let numerator: Int64
    public let denominator: Int64

    /// Creates `numerator/denominator` in lowest terms. The denominator must not be zero.
    public init(_ numerator: Int64, _ denominator: Int64 = 1) {
        precondition(denominator != 0, "Rational with a zero denominator")
        let divisor = Swift.max(Rational.gcd(numerator, denominator), 1)
        let sign: Int64 = denominator < 0 ? -1 : 1
        self.numerator = sign * numerator / divisor
        self.denominator = sign * denominator / divisor
    }

    /// The value as a `Double`, for display and for APIs that take floating point.
    public var doubleValue: Double { Double(numerator) / Double(denominator) }

    /// The reciprocal; the value must not be zero.
    public var reciprocal: Rational { Rational(denominator, numerator) }

    /// `"30000/1001"`, or `"240"` when the denominator is 1.
    public var description: String {
        denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)"
    }

    public static func < (lhs: Rational, rhs: Rational) -> Bool {
        // Cross-multiplication in 128 bits cannot overflow.
        let left = lhs.numerator.multipliedFullWidth(by: rhs.denominator)
        let right = rhs.numerator.multipliedFullWidth(by: lhs.denominator)
        return (left.high, left.low) < (right.high, right.low)
    }

    public static func * (lhs: Rational, rhs: Rational) -> Rational {
        let a = gcd(lhs.numerator, rhs.denominator), b = gcd(rhs.numerator, lhs.denominator)
        let ga = Swift.max(a, 1), gb = Swift.max(b, 1)
        return Rational((lhs.numerator / ga) * (rhs.numerator / gb),
                        (lhs.denominator / gb) * (rhs.denominator / ga))
    }

    public static func / (lhs: Rational, rhs: Rational) -> Rational { lhs * rhs.reciprocal }

    public static func + (lhs: Rational, rhs: Rational) -> Rational {
        let common = gcd(lhs.denominator, rhs.denominator)
        let left = lhs.numerator * (rhs.denominator / common)
        let right = rhs.numerator * (lhs.denominator / common)
        return Rational(left + right, lhs.denominator / common * rhs.denominator)
    }

    public static func - (lhs: Rational, rhs: Rational) -> Rational {
        lhs + Rational(-rhs.numerator, rhs.denominator)
    }

    /// Encodes as the string `"30000/1001"` (or `"240"`): exact, and readable in JSON and YAML.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Decodes `"30000/1001"`, `"240"`, `"0.25"` or a whole number.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let whole = try? container.decode(Int64.self) {
            self.init(whole)
            return
        }
        let text = try container.decode(String.self)
        guard let value = Rational(decimal: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected a fraction like 30000/1001, found \"\(text)\"")
        }
        self = value
    }

    /// Greatest common divisor of the magnitudes (0 when both are 0).
    public static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var x = a.magnitude, y = b.magnitude
        while y != 0 { (x, y) = (y, x % y) }
        return Int64(x)
    }
}
