/// An exact media time: `value / timescale` seconds, like `CMTime`, with no floating point.
///
/// Two times are equal when they denote the same instant, whatever their timescales
/// (`1/2 s == 500/1000 s`), and hash alike. Arithmetic is overflow-checked: the operators
/// (`+`, `-`) trap when an exact result does not fit in 64-bit integers, and the throwing
/// methods (`adding(_:)`, `subtracting(_:)`, `multiplied(by:)`, `divided(by:)`) throw
/// `TimeModelError.Kind.overflow` instead. Results are returned in lowest terms.
///
/// Conversion to an FFmpeg time base (`ticks(in:rounding:)`) is the only place where
/// rounding happens, and it is explicit.
public struct MediaTime: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Ticks.
    public let value: Int64
    /// Ticks per second; always positive.
    public let timescale: Int64

    /// How a time is rounded to a whole number of ticks.
    public enum Rounding: Sendable {
        /// Toward negative infinity.
        case down
        /// Toward positive infinity.
        case up
        /// To the nearest tick, halves away from zero (FFmpeg's `AV_ROUND_NEAR_INF`).
        case nearest
        /// Toward zero (truncation).
        case towardZero
    }

    /// `value / timescale` seconds. Traps if `timescale` is not positive.
    public init(value: Int64, timescale: Int64) {
        precondition(timescale > 0, "MediaTime timescale must be positive, got \(timescale)")
        self.value = value
        self.timescale = timescale
    }

    /// Exactly `seconds`.
    public init(seconds: Rational) {
        self.init(value: seconds.numerator, timescale: seconds.denominator)
    }

    /// `ticks × timeBase` seconds, exactly (FFmpeg's `pts × time_base`). The time base must
    /// be positive; traps if the exact result does not fit (use `init(exactTicks:timeBase:)`
    /// for untrusted input).
    public init(ticks: Int64, timeBase: Rational) {
        do {
            self = try MediaTime(exactTicks: ticks, timeBase: timeBase)
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// `ticks × timeBase` seconds, exactly; throws when the time base is not positive or the
    /// result does not fit.
    public init(exactTicks ticks: Int64, timeBase: Rational) throws {
        guard timeBase.numerator > 0 else {
            throw TimeModelError(.invalidValue, "time base \(timeBase) is not positive")
        }
        self = try MediaTime.exact(Int128(ticks) * Int128(timeBase.numerator),
                                   Int128(timeBase.denominator))
    }

    /// Seconds from a literal or a display value, for scripts: `.seconds(2) ..< .seconds(4.5)`.
    /// Exact for what the number prints as (`0.3` is 3/10 s, not the nearest binary fraction);
    /// values that print in exponent form (`1e-10`) are rounded to the nanosecond.
    public static func seconds(_ value: Double) -> MediaTime {
        Rational(decimal: "\(value)").map(MediaTime.init(seconds:)) ?? .nanoseconds(value)
    }

    /// Zero seconds.
    public static let zero = MediaTime(value: 0, timescale: 1)

    /// The time in seconds, exactly.
    public var seconds: Rational { Rational(value, timescale) }

    /// The time in seconds as a `Double`: for display only, never for computation.
    public var doubleSeconds: Double { Double(value) / Double(timescale) }

    /// This time as a whole number of `timeBase` ticks, rounded as asked; throws when the
    /// time base is not positive or the result does not fit in 64 bits.
    public func ticks(in timeBase: Rational, rounding: MediaTime.Rounding = .nearest) throws -> Int64 {
        guard timeBase.numerator > 0 else {
            throw TimeModelError(.invalidValue, "time base \(timeBase) is not positive")
        }
        // value/timescale ÷ num/den = value·den / (timescale·num)
        let quotient = Wide.divide(Int128(value) * Int128(timeBase.denominator),
                                   Int128(timescale) * Int128(timeBase.numerator),
                                   rounding: rounding)
        guard let ticks = Int64(exactly: quotient) else {
            throw TimeModelError(.overflow, "\(self) s is too large for time base \(timeBase)")
        }
        return ticks
    }

    // MARK: Equality, hashing, order

    // Cross-multiplication in full width cannot overflow. (Concrete Int64 operations rather
    // than Int128 conversions keep comparisons cheap in debug builds too.)
    public static func == (lhs: MediaTime, rhs: MediaTime) -> Bool {
        lhs.value.multipliedFullWidth(by: rhs.timescale) == rhs.value.multipliedFullWidth(by: lhs.timescale)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(seconds)    // lowest terms: equal times hash alike
    }

    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
        let left = lhs.value.multipliedFullWidth(by: rhs.timescale)
        let right = rhs.value.multipliedFullWidth(by: lhs.timescale)
        return left.high < right.high || (left.high == right.high && left.low < right.low)
    }

    // MARK: Arithmetic

    /// `self + other`, exactly; throws on overflow.
    public func adding(_ other: MediaTime) throws -> MediaTime {
        if timescale == other.timescale {
            return try MediaTime.exact(Int128(value) + Int128(other.value), Int128(timescale))
        }
        return try MediaTime.exact(
            Int128(value) * Int128(other.timescale) + Int128(other.value) * Int128(timescale),
            Int128(timescale) * Int128(other.timescale))
    }

    /// `self - other`, exactly; throws on overflow.
    public func subtracting(_ other: MediaTime) throws -> MediaTime {
        try MediaTime.exact(
            Int128(value) * Int128(other.timescale) - Int128(other.value) * Int128(timescale),
            Int128(timescale) * Int128(other.timescale))
    }

    /// `self × factor`, exactly; throws on overflow.
    public func multiplied(by factor: Rational) throws -> MediaTime {
        try MediaTime.exact(Int128(value) * Int128(factor.numerator),
                            Int128(timescale) * Int128(factor.denominator))
    }

    /// `self ÷ divisor`, exactly; throws on overflow or when `divisor` is zero.
    public func divided(by divisor: Rational) throws -> MediaTime {
        guard divisor.numerator != 0 else {
            throw TimeModelError(.invalidValue, "division of \(self) s by zero")
        }
        return try MediaTime.exact(Int128(value) * Int128(divisor.denominator),
                                   Int128(timescale) * Int128(divisor.numerator))
    }

    /// `lhs + rhs`; traps on overflow (see `adding(_:)`).
    public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        trapping { try lhs.adding(rhs) }
    }

    /// `lhs - rhs`; traps on overflow (see `subtracting(_:)`).
    public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        trapping { try lhs.subtracting(rhs) }
    }

    /// `-time`; traps only for `Int64.min` ticks.
    public static prefix func - (time: MediaTime) -> MediaTime {
        MediaTime(value: -time.value, timescale: time.timescale)
    }

    /// The smaller of two times.
    public static func min(_ a: MediaTime, _ b: MediaTime) -> MediaTime { a <= b ? a : b }

    /// The larger of two times.
    public static func max(_ a: MediaTime, _ b: MediaTime) -> MediaTime { a >= b ? a : b }

    // MARK: Codable

    private enum CodingKeys: String, CodingKey { case seconds, exact, value, timescale }

    /// Decodes slomo's JSON time, `{"seconds": 0.0333…, "exact": "1001/30000"}` (the exact text
    /// decides), or the older `{"value": 1001, "timescale": 30000}`; a time that does not parse
    /// or a timescale ≤ 0 is a decoding error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let exact = try container.decodeIfPresent(String.self, forKey: .exact) {
            guard let time = try? MediaTime(parsing: exact) else {
                throw DecodingError.dataCorruptedError(forKey: .exact, in: container,
                                                       debugDescription: "'\(exact)' is not an exact time such as 2.5 or 1001/30000")
            }
            self = time
            return
        }
        let value = try container.decode(Int64.self, forKey: .value)
        let timescale = try container.decode(Int64.self, forKey: .timescale)
        guard timescale > 0 else {
            throw DecodingError.dataCorruptedError(forKey: .timescale, in: container,
                                                   debugDescription: "timescale must be positive")
        }
        self.init(value: value, timescale: timescale)
    }

    /// Encodes slomo's one JSON time: seconds as a number, for reading and arithmetic, and
    /// the exact value as text (`exactDescription`: `"2.5"`, `"1001/30000"`), for exactness.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(doubleSeconds, forKey: .seconds)
        try container.encode(exactDescription, forKey: .exact)
    }

    // MARK: Internals

    /// `numerator / denominator` seconds in lowest terms; throws when it does not fit.
    static func exact(_ numerator: Int128, _ denominator: Int128) throws -> MediaTime {
        guard let (n, d) = Wide.reduced(numerator, denominator) else {
            throw TimeModelError(.overflow, "time \(numerator)/\(denominator) s does not fit in 64 bits")
        }
        return MediaTime(value: n, timescale: d)
    }

    private static func trapping(_ body: () throws -> MediaTime) -> MediaTime {
        do { return try body() } catch { preconditionFailure("\(error)") }
    }
}
