import Foundation
import SlomoCore

/// A composition laid out the way editors hold it: a row of events, each a range of a source
/// file played at one constant rate over a range of the output. Constant segments of the time
/// map become one event each; a ramp becomes a few short constant steps (editors' linear time
/// warps cannot ease), each carrying the exact ramp it approximates.
///
/// Every time is exact: step edges lie on source frames, and each step's output range is the
/// time map's own, so the steps meet the neighbouring segments without a gap.
public struct Timeline: Hashable, Sendable {
    /// The exact ramp a step belongs to, for writers that can express it and readers that
    /// restore it.
    public struct Ramp: Hashable, Sendable {
        /// The rates at the ramp's start and end.
        public var from: Rate, to: Rate
        /// The whole ramp's source and output ranges.
        public var source: TimeRange, output: TimeRange
    }

    /// One constant-rate piece of the output.
    public struct Event: Hashable, Sendable {
        /// Index into `Timeline.media` of the source file.
        public var media: Int
        /// The composition clip the event comes from.
        public var clip: Int
        /// The section of that clip, nil for the rate-1 stretches between sections.
        public var section: Section?
        /// The range of the source file that plays, in the file's time.
        public var source: TimeRange
        /// Where it plays in the output.
        public var output: TimeRange
        /// Set on the steps of a ramp.
        public var ramp: Ramp?

        /// Source seconds per output second: the time scalar editors call speed.
        /// Exact where the quotient fits in 64 bits (always for constant segments), otherwise
        /// to the nanosecond.
        public var rate: Rational {
            source.duration.seconds.dividedReportingOverflow(by: output.duration.seconds)
                ?? Rational(Int64((source.duration.doubleSeconds / output.duration.doubleSeconds * 1e9).rounded()), 1_000_000_000)
        }
    }

    /// A name for the timeline (editors show it as the project or sequence name).
    public var name: String
    /// The timeline's frame rate: the first source's, else 30.
    public var frameRate: Rational
    /// The source files, each once, in order of first use.
    public var media: [TimelineMedia]
    /// The events, in output order, tiling `0 ..< duration`.
    public var events: [Event]
    /// The output duration.
    public var duration: MediaTime

    /// The most steps a ramp is cut into.
    public static let maximumRampSteps = 12

    /// The timeline of `composition`, whose clips' sources are described by `media` (looked up
    /// by path). Throws the errors of the composition's time map, and `.invalidValue` when a
    /// clip's source has no entry in `media`.
    public init(_ composition: Composition, media: [TimelineMedia], name: String) throws {
        let map = try composition.timeMap()
        var used: [TimelineMedia] = []
        var events: [Event] = []
        for (clipIndex, entry) in map.entries.enumerated() {
            guard let found = media.first(where: { $0.path == TimelineMedia.absolute(entry.clip.source) }) else {
                throw TimeModelError(.invalidValue, "no media description for \(entry.clip.source)")
            }
            let mediaIndex = used.firstIndex(of: found) ?? { used.append(found); return used.count - 1 }()
            for segment in entry.map.segments {
                let section = segment.section.map { entry.map.sections[$0] }
                switch segment.shape {
                case .constant:
                    events.append(Event(media: mediaIndex, clip: clipIndex, section: section,
                                        source: segment.source, output: segment.output))
                case .ramp(let from, let to):
                    let ramp = Ramp(from: from, to: to, source: segment.source, output: segment.output)
                    for step in Self.steps(of: segment.source, frameRate: entry.clip.frameRate) {
                        let output = TimeRange(start: segment.outputTime(at: step.start),
                                               end: segment.outputTime(at: step.end))
                        events.append(Event(media: mediaIndex, clip: clipIndex, section: section,
                                            source: step, output: output, ramp: ramp))
                    }
                }
            }
        }
        self.name = name
        self.frameRate = used.first?.frameRate ?? Rational(30)
        self.media = used
        self.events = events
        self.duration = map.outputDuration
    }

    /// A ramp's source range cut into at most `maximumRampSteps` steps whose edges lie on source
    /// frames (equal parts when the frame rate is unknown).
    static func steps(of range: TimeRange, frameRate: Rational?) -> [TimeRange] {
        let frameDuration = frameRate.map { MediaTime(seconds: $0.reciprocal) }
        let frames = frameDuration.map { Int((range.duration.seconds / $0.seconds).doubleValue.rounded(.down)) } ?? 0
        var edges: [MediaTime] = [range.start]
        if let frameDuration, frames >= 1 {
            let perStep = (frames + maximumRampSteps - 1) / maximumRampSteps
            var edge = range.start
            while true {
                edge = edge + frameDuration * perStep
                if edge >= range.end { break }
                edges.append(edge)
            }
        } else {
            let part = range.duration.seconds / Rational(Int64(maximumRampSteps))
            edges += (1..<maximumRampSteps).map { range.start + MediaTime(seconds: part * Rational(Int64($0))) }
        }
        edges.append(range.end)
        return zip(edges, edges.dropFirst()).map { TimeRange(start: $0, end: $1) }
    }
}

extension TimelineMedia {
    /// `path` made absolute and standardised, the form `TimelineMedia.path` holds.
    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}

private extension MediaTime {
    static func * (time: MediaTime, count: Int) -> MediaTime {
        MediaTime(seconds: time.seconds * Rational(Int64(count)))
    }
}
