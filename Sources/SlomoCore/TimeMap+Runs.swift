extension TimeMap {
    /// A stretch of a map whose pictures are read one way: forwards over consecutive segments
    /// (constant, ramps, holds), or one reversed segment backwards.
    public struct Run: Hashable, Sendable {
        /// The source it shows (a reversed run's end first).
        public let source: TimeRange
        /// Where it plays.
        public let output: TimeRange
        /// True for a reversed segment.
        public let reversed: Bool
        /// True for a forward run that ends with a freeze, which holds the picture at `source.end`.
        public let endsWithHold: Bool
    }

    /// The map's runs in output order: the forward stretches between reversed segments and each
    /// reversed segment.
    public var runs: [Run] {
        var runs: [Run] = []
        var forward: [Segment] = []
        func closeForward() {
            guard let first = forward.first, let last = forward.last else { return }
            runs.append(Run(source: TimeRange(start: first.source.start, end: last.source.end),
                            output: TimeRange(start: first.output.start, end: last.output.end), reversed: false,
                            endsWithHold: last.isHold))
            forward = []
        }
        for segment in segments {
            if segment.isReversed {
                closeForward()
                runs.append(Run(source: segment.source, output: segment.output, reversed: true, endsWithHold: false))
            } else {
                forward.append(segment)
            }
        }
        closeForward()
        return runs
    }
}
