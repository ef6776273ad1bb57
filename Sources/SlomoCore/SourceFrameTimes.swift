/// When a source's video frames really are: their presentation times (from packet headers,
/// no decoding), so that plans and frame choices count the frames a section holds instead of
/// trusting a nominal rate a variable-frame-rate file does not keep.
public struct SourceFrameTimes: Hashable, Sendable {
    /// Presentation times in the source's time (from its start), sorted.
    public let times: [MediaTime]
    /// True when the intervals between frames vary (more than a time-base tick).
    public let isVariableFrameRate: Bool

    /// The frame times `times` (sorted here), variable or not as measured by the caller.
    public init(times: [MediaTime], isVariableFrameRate: Bool) {
        self.times = times.sorted()
        self.isVariableFrameRate = isVariableFrameRate
    }

    /// The number of frames whose time lies in `range` (start included, end excluded).
    public func count(in range: TimeRange) -> Int {
        index(of: range.end) - index(of: range.start)
    }

    /// Source frames per output second in `segment`: the frames it holds over its output
    /// duration.
    public func effectiveFrameRate(of segment: TimeMap.Segment) -> Rational {
        let seconds = segment.output.duration.seconds
        return Rational(Int64(count(in: segment.source))).dividedReportingOverflow(by: seconds)
            ?? Rational(Int64((Double(count(in: segment.source)) / seconds.doubleValue * 1e6).rounded()), 1_000_000)
    }

    /// The first index whose time is at or after `time`.
    private func index(of time: MediaTime) -> Int {
        var low = 0, high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle] < time { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension TimeMap.Segment {
    /// Source frames per output second: counted from `frameTimes` when the source is variable
    /// frame rate, else `sourceFrameRate × rate`; nil when neither is known.
    public func effectiveFrameRate(sourceFrameRate: Rational?, frameTimes: SourceFrameTimes?) -> Rational? {
        if let frameTimes, frameTimes.isVariableFrameRate { return frameTimes.effectiveFrameRate(of: self) }
        return sourceFrameRate.map { effectiveFrameRate(sourceFrameRate: $0) }
    }
}
