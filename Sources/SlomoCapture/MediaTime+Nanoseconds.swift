import SlomoCore

extension MediaTime {
    /// The time in nanoseconds, the unit of the session clock and of a recording's time line:
    /// exact when it fits, from the seconds otherwise.
    public var nanoseconds: Int64 {
        (try? ticks(in: Rational(1, 1_000_000_000))) ?? Int64(doubleSeconds * 1e9)
    }
}
