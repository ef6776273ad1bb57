/// 1/rate (output seconds per source second) over a segment plan's source range: evenly spaced
/// samples from its start to its end, linear in between. Two samples hold a constant rate or a
/// linear ramp exactly; an eased ramp is sampled densely enough that the rate read between
/// samples is within a few parts in 10⁵ of the curve.
public struct StretchCurve: Sendable, Hashable {
    /// The samples, first at the start, last at the end; at least two.
    public let samples: [Double]

    /// How many samples an eased ramp (or a piece of one) gets.
    static let easedSamples = 65

    /// A curve through `samples` (at least two).
    public init(samples: [Double]) {
        precondition(samples.count >= 2, "a stretch curve needs its start and its end")
        self.samples = samples
    }

    /// `count` samples of `stretch` (source frame → 1/rate) over `start ... end`; two when
    /// `count` is 2.
    init(sampling stretch: (Int) -> Double, from start: Int, to end: Int, count: Int) {
        self.init(samples: (0..<count).map { stretch(start + (end - start) * $0 / (count - 1)) })
    }

    /// 1/rate at the start.
    public var atStart: Double { samples[0] }
    /// 1/rate at the end.
    public var atEnd: Double { samples[samples.count - 1] }
    /// True for a constant rate.
    public var isConstant: Bool { samples.allSatisfy { $0 == samples[0] } }
    /// True when the curve is more than a line (an eased ramp).
    var isCurved: Bool { samples.count > 2 }
    /// The largest rate on the curve.
    var fastestRate: Double { 1 / samples.min()! }

    /// 1/rate at fraction `x` (0…1) of the range.
    public func value(at x: Double) -> Double {
        let position = min(max(x, 0), 1) * Double(samples.count - 1)
        let index = min(Int(position), samples.count - 2)
        let weight = position - Double(index)
        return samples[index] + (samples[index + 1] - samples[index]) * weight
    }
}
