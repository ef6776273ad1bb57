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
    /// True when intervals differ by more than one tick of the stream's time base (so that a
    /// constant rate that the time base cannot represent exactly is not called variable).
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
        isVariableFrameRate = (intervals.last ?? 0) - (intervals.first ?? 0) > 1
    }
}
