import Foundation

/// Maps data values to pixels along one side of a panel, and says where its ticks go and how
/// they are labelled. Linear for times and intervals; logarithmic (base 2) for rates, so that
/// 0.25x and 4x lie as far from 1x on either side.
struct Axis {
    enum Scale { case linear, logarithmic }

    /// The data values at the two ends.
    let lower: Double
    let upper: Double
    /// The pixel coordinates of `lower` and `upper` (for a vertical axis `start` is the larger).
    let start: Double
    let end: Double
    let scale: Scale
    /// The values that get a tick, a grid line and a label.
    let ticks: [Double]
    /// The label of a tick value.
    let label: (Double) -> String

    /// The pixel coordinate of `value` (values outside the range extrapolate).
    func pixel(_ value: Double) -> Double {
        let fraction: Double = switch scale {
        case .linear: (value - lower) / (upper - lower)
        case .logarithmic: log2(value / lower) / log2(upper / lower)
        }
        return start + (end - start) * fraction
    }

    /// A linear axis with "nice" ticks (1, 2 or 5 times a power of ten) about `spacing`
    /// pixels apart, labelled with as many decimals as the step needs plus `unit`.
    static func linear(_ lower: Double, _ upper: Double, from start: Double, to end: Double,
                       spacing: Double, unit: String = "") -> Axis {
        let upper = upper > lower ? upper : lower + 1
        let step = niceStep(for: (upper - lower) / max(1, abs(end - start) / spacing))
        let first = (lower / step).rounded(.up)
        let ticks = stride(from: first, through: (upper / step + 1e-9).rounded(.down), by: 1).map { $0 * step }
        let places = max(0, Int(-log10(step).rounded(.down)))
        return Axis(lower: lower, upper: upper, start: start, end: end, scale: .linear, ticks: ticks) { value in
            String(format: "%.\(places)f", value) + unit
        }
    }

    /// A logarithmic axis for rates with a tick at each power of two (every other one when
    /// they would crowd closer than `spacing` pixels), labelled `0.25×`, `1×`, `4×`.
    static func rates(_ lower: Double, _ upper: Double, from start: Double, to end: Double, spacing: Double) -> Axis {
        let low = Int(log2(lower).rounded(.up)), high = Int(log2(upper).rounded(.down))
        let pixelsPerOctave = abs(end - start) / log2(upper / lower)
        let every = max(1, Int((spacing / pixelsPerOctave).rounded(.up)))
        let ticks = (low...max(low, high)).filter { $0 % every == 0 }.map { pow(2, Double($0)) }
        return Axis(lower: lower, upper: upper, start: start, end: end, scale: .logarithmic, ticks: ticks) { value in
            trimmedNumber(value, places: 4) + "×"
        }
    }

    /// 1, 2 or 5 times a power of ten, the smallest not below `rough`.
    static func niceStep(for rough: Double) -> Double {
        let power = pow(10, log10(rough).rounded(.down))
        return [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= rough * (1 - 1e-9) } ?? 10 * power
    }
}
