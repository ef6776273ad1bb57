import SlomoCore

/// Frame intervals of a video stream measured from the timestamps of all its packets: what
/// a stream really does, as opposed to the frame rate its header claims.
public struct FrameTiming: Codable, Hashable, Sendable {
    /// Number of packets (frames) in the stream.
    public var frameCount: Int
    /// Shortest, median and longest interval between consecutive presentation timestamps.
    public var minimumInterval: MediaTime?
    public var medianInterval: MediaTime?
    public var maximumInterval: MediaTime?
    /// True when the frames stray from a constant rate by more than the container's rounding:
    /// every timestamp within ±1 tick of the time base of a straight line (a least-squares fit)
    /// is a constant rate that the time base cannot represent exactly, or a muxer's rounding
    /// (29.97 fps in milliseconds: intervals of 32 to 35 ms), not variable frame rate.
    public var isVariableFrameRate: Bool

    /// Measures the intervals between sorted presentation timestamps in `timeBase` ticks.
    public init(presentationTimestamps: [Int64], timeBase: Rational) {
        let sorted = presentationTimestamps.sorted()
        let intervals = zip(sorted.dropFirst(), sorted).map { $0 - $1 }.sorted()
        func time(_ ticks: Int64?) -> MediaTime? { ticks.map { MediaTime(ticks: $0, timeBase: timeBase) } }
        frameCount = presentationTimestamps.count
        minimumInterval = time(intervals.first)
        medianInterval = time(intervals.isEmpty ? nil : intervals[intervals.count / 2])
        maximumInterval = time(intervals.last)
        isVariableFrameRate = (intervals.last ?? 0) - (intervals.first ?? 0) > 1 && Self.strayFromALine(sorted)
    }

    /// True when some timestamp lies further than 1 tick from the least-squares line through
    /// them all, after the line is moved to sit in the middle of their spread.
    private static func strayFromALine(_ ticks: [Int64]) -> Bool {
        let count = Double(ticks.count)
        guard ticks.count > 2 else { return false }
        let first = ticks[0]
        let values = ticks.map { Double($0 - first) }
        let meanIndex = (count - 1) / 2
        let meanValue = values.reduce(0, +) / count
        var covariance = 0.0, variance = 0.0
        for (index, value) in values.enumerated() {
            covariance += (Double(index) - meanIndex) * (value - meanValue)
            variance += (Double(index) - meanIndex) * (Double(index) - meanIndex)
        }
        let slope = covariance / variance
        let residuals = values.enumerated().map { $1 - (meanValue + slope * (Double($0) - meanIndex)) }
        return residuals.max()! - residuals.min()! > 2 + 1e-9
    }
}
