import Foundation
import SlomoCore

/// A composition laid out the way editors hold it: a row of events, each a range of a source
/// file played at one constant rate over a range of the output. Constant segments of the time
/// map become one event each; a ramp becomes a few short constant steps (editors' linear time
/// warps cannot ease), each carrying the exact ramp it approximates; a freeze frame is an
/// event that holds its source time (editors' freeze frames).
///
/// Every time is exact: step edges lie on source frames, and each step's output range is the
/// time map's own, so the steps meet the neighbouring segments without a gap. Editors place
/// clips on whole frames of the project's rate, so each event also has `placed`: its output
/// edges rounded to the nearest frame of `frameRate` (edges, not lengths, so rounding never
/// accumulates; a step shorter than a frame joins the one before it).
public struct Timeline: Hashable, Sendable {
    /// The exact ramp a step belongs to, for writers that can express it and readers that
    /// restore it.
    public struct Ramp: Hashable, Sendable {
        /// The rates at the ramp's start and end.
        public var from: Rate, to: Rate
        /// The curve between them.
        public var ease: Ease = .linear
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
        /// Set on a freeze frame (its `source` is the held time, empty): what is heard.
        public var hold: Freeze.Audio?
        /// True when `source` plays backwards (a reversed section): its end at `output.start`.
        public var reversed = false
        /// `output` with both edges on the nearest whole frame of the timeline's rate: where an
        /// editor places it.
        public var placed: TimeRange

        init(media: Int, clip: Int, section: Section?, source: TimeRange, output: TimeRange, ramp: Ramp? = nil) {
            self.media = media
            self.clip = clip
            self.section = section
            self.source = source
            self.output = output
            self.ramp = ramp
            placed = output
        }

        /// Source seconds per output second: the time scalar editors call speed (its size; a
        /// reversed event's is negative in editors).
        /// Exact where the quotient fits in 64 bits (always for constant segments), otherwise
        /// to the nanosecond.
        public var rate: Rational { Self.rate(source, over: output) }

        /// The speed an editor applies to the placed clip: its source duration over `placed`'s,
        /// so that the placed clip uses exactly its source range.
        public var placedRate: Rational { Self.rate(source, over: placed) }

        private static func rate(_ source: TimeRange, over output: TimeRange) -> Rational {
            source.duration.seconds.dividedReportingOverflow(by: output.duration.seconds)
                ?? Rational(Int64((source.duration.doubleSeconds / output.duration.doubleSeconds * 1e9).rounded()), 1_000_000_000)
        }
    }

    /// A name for the timeline (editors show it as the project or sequence name).
    public var name: String
    /// The timeline's (project's) frame rate: as asked, else the first source's, else 30.
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
    /// by path), at the project rate `frameRate` (nil: the first source's, else 30). Throws
    /// the errors of the composition's time map, and `.invalidValue` when a clip's source has
    /// no entry in `media`.
    public init(_ composition: Composition, media: [TimelineMedia], name: String, frameRate: Rational? = nil) throws {
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
                case .reversed:
                    var event = Event(media: mediaIndex, clip: clipIndex, section: section, source: segment.source,
                                      output: segment.output)
                    event.reversed = true
                    events.append(event)
                case .hold(let audio):
                    var event = Event(media: mediaIndex, clip: clipIndex, section: nil, source: segment.source,
                                      output: segment.output)
                    event.hold = audio
                    events.append(event)
                case .ramp(let from, let to), .eased(let from, let to, _):
                    var ramp = Ramp(from: from, to: to, source: segment.source, output: segment.output)
                    if case .eased(_, _, let ease) = segment.shape { ramp.ease = ease }
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
        self.frameRate = frameRate ?? used.first?.frameRate ?? Rational(30)
        self.media = used
        self.events = Self.placed(events, frameRate: self.frameRate)
        self.duration = map.outputDuration
    }

    /// The largest distance between an event's exact output edge and where it is placed.
    public var largestPlacementError: MediaTime {
        func distance(_ a: MediaTime, _ b: MediaTime) -> MediaTime { a > b ? a - b : b - a }
        return events.map { MediaTime.max(distance($0.placed.start, $0.output.start), distance($0.placed.end, $0.output.end)) }
            .max() ?? .zero
    }

    /// `events` placed on whole frames at `frameRate`; an event that rounds to nothing joins
    /// the one before it (the first joins the one after), so the events still tile the source.
    static func placed(_ events: [Event], frameRate: Rational) -> [Event] {
        let frame = MediaTime(seconds: frameRate.reciprocal)
        func onGrid(_ time: MediaTime) -> MediaTime {
            let frames = (try? time.ticks(in: frame.seconds, rounding: .nearest))
                ?? Int64((time.doubleSeconds * frameRate.doubleValue).rounded())
            return MediaTime(ticks: frames, timeBase: frame.seconds)
        }
        var placed: [Event] = []
        var pending: Event?    // a leading event that rounded to nothing
        for var event in events {
            event.placed = TimeRange(start: onGrid(event.output.start), end: onGrid(event.output.end))
            if let first = pending {
                event.source = TimeRange(start: first.source.start, end: event.source.end)
                event.output = TimeRange(start: first.output.start, end: event.output.end)
                event.placed = TimeRange(start: first.placed.start, end: event.placed.end)
                pending = nil
            }
            if !event.placed.isEmpty {
                placed.append(event)
            } else if var last = placed.popLast() {
                last.source = TimeRange(start: last.source.start, end: event.source.end)
                last.output = TimeRange(start: last.output.start, end: event.output.end)
                placed.append(last)
            } else {
                pending = event
            }
        }
        if let pending { placed.append(pending) }
        return placed
    }

    /// A ramp's source range cut into at most `maximumRampSteps` steps whose edges lie on source
    /// frames (equal parts when the frame rate is unknown).
    static func steps(of range: TimeRange, frameRate: Rational?) -> [TimeRange] {
        (try? range.frameAligned(parts: maximumRampSteps, frameRate: frameRate)) ?? [range]
    }
}

extension TimelineMedia {
    /// `path` made absolute and standardised, the form `TimelineMedia.path` holds.
    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
