/// A playback rate: a positive exact fraction, 0.25 = four times slower, 2 = twice as fast.
/// Never the inverse (see DESIGN.md): a section at rate `r` over source duration `d` lasts
/// exactly `d / r` in the output.
///
/// Rates are limited to `Rate.minimum … Rate.maximum` (1/32 … 32). `0.25` and `1/4` are the same
/// rate, so they compare and hash equal.
public struct Rate: Hashable, Comparable, Sendable, CustomStringConvertible, Codable,
                    ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    /// The rate as an exact fraction in lowest terms.
    public let value: Rational

    /// The slowest rate allowed, 1/32.
    public static let minimum = Rate(uncheckedValue: Rational(1, 32))
    /// The fastest rate allowed, 32.
    public static let maximum = Rate(uncheckedValue: Rational(32))
    /// Normal speed, 1.
    public static let normal = Rate(uncheckedValue: Rational(1))

    /// The rate `value`; throws `.nonPositiveRate` for `value ≤ 0` and `.rateOutOfRange`
    /// outside 1/32 … 32.
    public init(_ value: Rational) throws {
        guard value.numerator > 0 else {
            throw TimeModelError(.nonPositiveRate, "rate \(value) must be greater than 0")
        }
        guard Rate.minimum.value <= value && value <= Rate.maximum.value else {
            throw TimeModelError(.rateOutOfRange,
                                 "rate \(Rate.text(value)) is outside the allowed 1/32 … 32")
        }
        self.value = value
    }

    /// Parses `0.25`, `1/4`, `2`; throws `.unparseable` with the text as subject, or the
    /// errors of `init(_:)`.
    public init(parsing text: String) throws {
        guard let value = Rational(decimal: text) else {
            throw TimeModelError(.unparseable, "expected a rate such as 0.25 or 1/4",
                                 subject: "rate '\(text)'")
        }
        try self.init(value)
    }

    /// A rate from a literal such as `0.25`; traps if it is not an allowed rate.
    public init(floatLiteral literal: Double) {
        guard let value = Rational(decimal: "\(literal)"), let rate = try? Rate(value) else {
            preconditionFailure("\(literal) is not a rate between 1/32 and 32")
        }
        self = rate
    }

    /// A rate from a literal such as `2`; traps if it is not an allowed rate.
    public init(integerLiteral literal: Int64) {
        guard let rate = try? Rate(Rational(literal)) else {
            preconditionFailure("\(literal) is not a rate between 1/32 and 32")
        }
        self = rate
    }

    private init(uncheckedValue: Rational) { value = uncheckedValue }

    /// `1 / rate`: output seconds per source second.
    public var stretch: Rational { value.reciprocal }

    /// `"0.25"` when the rate has a short exact decimal form, otherwise `"1/3"`.
    public var description: String { Rate.text(value) }

    /// The rate as a `Double`, for display only.
    public var doubleValue: Double { value.doubleValue }

    public static func < (lhs: Rate, rhs: Rate) -> Bool { lhs.value < rhs.value }

    /// Encoded as its text (`"0.25"`, `"1/3"`), which is exact.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Decodes the text form, or a number.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            try self.init(parsing: text)
        } else {
            try self.init(parsing: "\(try container.decode(Double.self))")
        }
    }

    static func text(_ value: Rational) -> String {
        Rational.exactDecimal(value) ?? value.description
    }
}

extension Rate {
    /// A rate that may be negative, played backwards (a section's rate, `-0.5`): its speed and
    /// direction. Throws `.nonPositiveRate` for 0 (which would stop time: a freeze frame holds
    /// one), or the errors of `init(_:)` for the speed.
    public static func directed(_ value: Rational) throws -> (rate: Rate, reversed: Bool) {
        guard value.numerator != 0 else {
            throw TimeModelError(.nonPositiveRate, "rate 0 would stop time; hold a frame with a freeze (--freeze T:D) instead")
        }
        return (try Rate(value.numerator < 0 ? Rational(-value.numerator, value.denominator) : value), value.numerator < 0)
    }

    /// Parses `-1`, `-0.5`, `0.25`, `1/4`, `-1/2` (see `directed(_:)`); throws `.unparseable`
    /// with the text as subject.
    public static func parsingDirected(_ text: String) throws -> (rate: Rate, reversed: Bool) {
        guard let value = Rational(decimal: text) else {
            throw TimeModelError(.unparseable, "expected a rate such as 0.25, 1/4 or -1 (backwards)",
                                 subject: "rate '\(text)'")
        }
        return try directed(value)
    }

    /// The rate with its direction as one number, negative when `reversed` (`directed`'s inverse).
    public func directedValue(reversed: Bool) -> Rational {
        reversed ? Rational(-value.numerator, value.denominator) : value
    }

    /// The rate as written for a section: `-0.5` when `reversed`.
    public static func text(_ rate: Rate, reversed: Bool) -> String { (reversed ? "-" : "") + rate.description }
}
