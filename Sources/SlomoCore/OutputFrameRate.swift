/// An output frame rate as people type it: a rate (`30`, `29.97` meaning 30000/1001,
/// `30000/1001`) or `source`, the exact nominal rate of the composition's first clip.
public enum OutputFrameRate: Hashable, Sendable, CustomStringConvertible {
    /// This rate.
    case rate(Rational)
    /// The nominal frame rate of the first clip's source.
    case source

    /// Parses `source` or a positive frame rate (`Rational(frameRate:)`: the NTSC decimals are
    /// the exact NTSC fractions). Throws `.unparseable` otherwise; callers name their option
    /// with `TimeModelError.about(_:)`.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingSpaces
        if trimmed == "source" {
            self = .source
        } else if let rate = Rational(frameRate: trimmed), rate.numerator > 0 {
            self = .rate(rate)
        } else {
            throw TimeModelError(.unparseable, "expects a positive frame rate such as 30, 29.97 (= 30000/1001), "
                                 + "30000/1001 or source, got '\(text)'")
        }
    }

    /// The rate, with `source` read from the first clip of `composition` whose frame rate is
    /// known. Throws `.invalidValue` when no clip's rate is known (a variable-frame-rate
    /// source without a nominal rate).
    public func resolved(for composition: Composition) throws -> Rational {
        switch self {
        case .rate(let rate):
            return rate
        case .source:
            guard let rate = composition.clips.lazy.compactMap(\.frameRate).first(where: { $0.numerator > 0 }) else {
                let source = composition.clips.first?.source ?? "the composition"
                throw TimeModelError(.invalidValue, "source: \(source) has no nominal frame rate to copy; "
                                     + "give one, such as 30 or 29.97")
            }
            return rate
        }
    }

    /// `"30000/1001"` or `"source"`.
    public var description: String {
        switch self {
        case .rate(let rate): return rate.description
        case .source: return "source"
        }
    }
}
