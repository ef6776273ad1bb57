/// How a ramp moves from one rate to the next: the curve `E(u)` that takes the ramp's 1/rate
/// (output seconds per source second) from its start value (`u = 0`) to its end value
/// (`u = 1`), `u` being the fraction of the ramp's source time elapsed:
/// `1/rate(u) = k0 + (k1 − k0)·E(u)`.
///
/// Output time is the integral of 1/rate, so every curve needs `I(u) = ∫₀ᵘ E`: `linear` (E = u,
/// today's ramp) and `smooth` (smoothstep, E = 3u² − 2u³) are polynomials; the CSS forms are
/// cubic Bézier curves `(x(t), y(t))`, for which `I(u) = ∫₀ᵗ y(τ)·x′(τ) dτ` is a polynomial of
/// degree 6 in the curve parameter `t`, found from `u = x(t)` by Newton's method. Both are
/// evaluated in `Double`, far inside the microsecond the design asks for.
///
/// Every curve starts at 0 and ends at 1, so the rate never jumps at a ramp's ends; `smooth`,
/// `in-out` and Bézier curves with flat ends also leave its slope continuous.
public enum Ease: Hashable, Sendable, CustomStringConvertible {
    /// 1/rate linear in source time (the default).
    case linear
    /// Smoothstep: flat at both ends, steepest in the middle.
    case smooth
    /// CSS `ease-in`, `cubic-bezier(0.42, 0, 1, 1)`: slow to leave the first rate.
    case easeIn
    /// CSS `ease-out`, `cubic-bezier(0, 0, 0.58, 1)`: slow to arrive at the second rate.
    case easeOut
    /// CSS `ease-in-out`, `cubic-bezier(0.42, 0, 0.58, 1)`.
    case easeInOut
    /// CSS `cubic-bezier(x1, y1, x2, y2)`: a curve from (0, 0) to (1, 1) with these control
    /// points, all in 0…1 (so the rate stays between the ramp's two rates).
    case cubicBezier(x1: Rational, y1: Rational, x2: Rational, y2: Rational)

    /// The names `init(parsing:)` takes besides `cubic-bezier(…)`.
    public static let names = ["linear", "smooth", "in", "out", "in-out"]

    /// Parses `linear`, `smooth`, `in`, `out`, `in-out` or `cubic-bezier(x1,y1,x2,y2)` with
    /// the four numbers in 0…1. Throws `.invalidValue` naming what is expected.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingSpaces
        switch trimmed {
        case "linear": self = .linear
        case "smooth": self = .smooth
        case "in": self = .easeIn
        case "out": self = .easeOut
        case "in-out": self = .easeInOut
        default:
            guard trimmed.hasPrefix("cubic-bezier("), trimmed.hasSuffix(")") else {
                throw TimeModelError(.invalidValue, "unknown ease '\(text)'; expected "
                                     + Ease.names.joined(separator: ", ") + " or cubic-bezier(x1,y1,x2,y2)")
            }
            let numbers = trimmed.dropFirst("cubic-bezier(".count).dropLast()
                .split(separator: ",", omittingEmptySubsequences: false).map { Rational(decimal: String($0)) }
            guard numbers.count == 4, let x1 = numbers[0], let y1 = numbers[1], let x2 = numbers[2], let y2 = numbers[3],
                  [x1, y1, x2, y2].allSatisfy({ $0 >= Rational(0) && $0 <= Rational(1) }) else {
                throw TimeModelError(.invalidValue, "expected cubic-bezier(x1,y1,x2,y2) with four numbers in 0…1 "
                                     + "(control points outside would take the rate past the ramp's rates), got '\(text)'")
            }
            self = .cubicBezier(x1: x1, y1: y1, x2: x2, y2: y2)
        }
    }

    /// The ease as written: `"smooth"`, `"in-out"`, `"cubic-bezier(0.25,0.1,0.25,1)"`.
    public var description: String {
        switch self {
        case .linear: return "linear"
        case .smooth: return "smooth"
        case .easeIn: return "in"
        case .easeOut: return "out"
        case .easeInOut: return "in-out"
        case .cubicBezier(let x1, let y1, let x2, let y2):
            let numbers = [x1, y1, x2, y2].map { Rational.exactDecimal($0) ?? $0.description }
            return "cubic-bezier(" + numbers.joined(separator: ",") + ")"
        }
    }

    /// The fraction of the change in 1/rate reached at `u` (0…1), `E(u)`.
    public func fraction(at u: Double) -> Double {
        switch curve {
        case .polynomial(let e, _): return Polynomial.value(e, at: u)
        case .bezier(let bezier): return bezier.y(bezier.parameter(at: u))
        }
    }

    /// `∫₀ᵘ E`: the ramp's output time at `u`, in units of its length times the change in 1/rate.
    public func integral(to u: Double) -> Double {
        switch curve {
        case .polynomial(_, let area): return Polynomial.value(area, at: u)
        case .bezier(let bezier): return Polynomial.value(bezier.area, at: bezier.parameter(at: u))
        }
    }

    private var curve: Curve {
        switch self {
        case .linear: return .polynomial(fraction: [0, 1], area: [0, 0, 0.5])
        case .smooth: return .polynomial(fraction: [0, 0, 3, -2], area: [0, 0, 0, 1, -0.5])
        case .easeIn: return .bezier(CubicBezier(0.42, 0, 1, 1))
        case .easeOut: return .bezier(CubicBezier(0, 0, 0.58, 1))
        case .easeInOut: return .bezier(CubicBezier(0.42, 0, 0.58, 1))
        case .cubicBezier(let x1, let y1, let x2, let y2):
            return .bezier(CubicBezier(x1.doubleValue, y1.doubleValue, x2.doubleValue, y2.doubleValue))
        }
    }

    private enum Curve {
        /// E and I as polynomial coefficients, lowest power first.
        case polynomial(fraction: [Double], area: [Double])
        case bezier(CubicBezier)
    }
}

/// Polynomials as coefficient lists, lowest power first.
enum Polynomial {
    /// The value at `x` (Horner).
    static func value(_ coefficients: [Double], at x: Double) -> Double {
        coefficients.reversed().reduce(0) { $0 * x + $1 }
    }

    /// The product of two polynomials.
    static func product(_ a: [Double], _ b: [Double]) -> [Double] {
        var result = [Double](repeating: 0, count: a.count + b.count - 1)
        for (i, p) in a.enumerated() { for (j, q) in b.enumerated() { result[i + j] += p * q } }
        return result
    }

    /// The derivative.
    static func derivative(_ a: [Double]) -> [Double] {
        a.enumerated().dropFirst().map { Double($0.offset) * $0.element }
    }

    /// The antiderivative that is 0 at 0.
    static func antiderivative(_ a: [Double]) -> [Double] {
        [0] + a.enumerated().map { $0.element / Double($0.offset + 1) }
    }
}

/// A CSS cubic Bézier timing curve from (0, 0) to (1, 1), with its x and y as polynomials in
/// the curve parameter t and the area under it up to t.
struct CubicBezier {
    let x: [Double], y: [Double], area: [Double]
    private let slopeX: [Double]

    init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        // B(t) = 3(1−t)²t·P1 + 3(1−t)t²·P2 + t³ = 3P1·t + (3P2 − 6P1)·t² + (1 + 3P1 − 3P2)·t³
        func coordinate(_ p1: Double, _ p2: Double) -> [Double] { [0, 3 * p1, 3 * p2 - 6 * p1, 1 + 3 * p1 - 3 * p2] }
        x = coordinate(x1, x2)
        y = coordinate(y1, y2)
        slopeX = Polynomial.derivative(x)
        area = Polynomial.antiderivative(Polynomial.product(y, slopeX))
    }

    func y(_ t: Double) -> Double { Polynomial.value(y, at: t) }

    /// The t with x(t) = u (x is non-decreasing for control points in 0…1): Newton's method,
    /// kept inside a shrinking bracket so that flat stretches cannot throw it out.
    func parameter(at u: Double) -> Double {
        if u <= 0 { return 0 }
        if u >= 1 { return 1 }
        var low = 0.0, high = 1.0, t = u
        for _ in 0..<100 {
            let error = Polynomial.value(x, at: t) - u
            if abs(error) < 1e-15 { break }
            if error < 0 { low = t } else { high = t }
            let slope = Polynomial.value(slopeX, at: t)
            let next = slope > 1e-12 ? t - error / slope : (low + high) / 2
            t = next > low && next < high ? next : (low + high) / 2
            if high - low < 1e-16 { break }
        }
        return t
    }
}
