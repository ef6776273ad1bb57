import Foundation

/// What an export will do, computed from a time map: per segment the source and output
/// ranges, rate, effective frame rate, frame counts and audio algorithm, and the totals. It is
/// what `slomo plan` and `--dry-run` print; its JSON form (`jsonText()`) is a stable schema
/// documented in docs/plan.md.
///
/// Frame counts assume source frames at `n / frameRate` and, for CFR, output frames at
/// `n / cfrFrameRate`: a segment holds the frames whose time lies in its half-open range, so
/// the counts of consecutive segments add up to the count of the whole.
public struct Plan: Codable, Hashable, Sendable {
    /// One clip of the plan.
    public struct Clip: Codable, Hashable, Sendable {
        /// The source file.
        public var source: String
        /// The start of the clip's range of the source file.
        public var sourceStart: MediaTime
        /// The end of the clip's range.
        public var sourceEnd: MediaTime
        /// The source's frame rate, when known (exact, as text: `"240"`, `"30000/1001"`).
        public var frameRate: String?
        /// True when the source's frames are not evenly spaced (measured from their times);
        /// nil when their times were not read. Frame counts then come from the real frames.
        public var variableFrameRate: Bool?
    }

    /// One segment of the time map.
    public struct Segment: Codable, Hashable, Sendable {
        /// Index into `clips`.
        public var clip: Int
        /// Index of the section in its clip (sorted by start); nil for rate-1 stretches.
        public var section: Int?
        /// Source range start, in the source file's time.
        public var sourceStart: MediaTime
        /// Source range end, in the source file's time.
        public var sourceEnd: MediaTime
        /// Output range start.
        public var outputStart: MediaTime
        /// Output range end.
        public var outputEnd: MediaTime
        /// The rate: for a ramp the average (source duration / output duration); negative when
        /// the segment plays backwards.
        public var rate: Double
        /// The exact rate as text (`"0.25"`, `"1/3"`, `"-1"`); for a ramp `"1→0.25"`.
        public var rateText: String
        /// For a ramp, the rate at its start; nil for a constant segment.
        public var rampFrom: Double?
        /// For a ramp, the rate at its end; nil for a constant segment.
        public var rampTo: Double?
        /// For a ramp, its curve (`"linear"`, `"smooth"`, `"cubic-bezier(…)"`); nil for a constant segment.
        public var ease: String?
        /// For an eased (non-linear) ramp, points along it from its start to its end, to draw it
        /// by; nil otherwise (a linear ramp is drawn from `rampFrom` and `rampTo`).
        public var curve: [CurvePoint]?
        /// True for a reversed section's segment (its source end plays first, at `outputStart`);
        /// nil otherwise.
        public var reversed: Bool?
        /// For a freeze frame (source start = end, rate 0), what is heard: `"silence"` or
        /// `"freeze"`; nil otherwise.
        public var hold: String?
        /// Source frames per output second (source fps × rate); nil without a source frame rate.
        public var effectiveFrameRate: Double?
        /// Source frames in the segment; nil without a source frame rate.
        public var sourceFrames: Int?
        /// Output frames in the segment at the CFR rate; nil for passthrough.
        public var outputFrames: Int?
        /// The audio algorithm that renders the segment; nil when none is chosen.
        public var audio: TimePitchAlgorithm?
        /// Semitones the segment's section moves its sound by; nil when it has no pitch of its own.
        public var pitch: Double?
    }

    /// A point on an eased ramp: source time, output time and rate there, in seconds.
    public struct CurvePoint: Codable, Hashable, Sendable {
        public var source: Double
        public var output: Double
        public var rate: Double
    }

    /// How many points `Segment.curve` has.
    static let curvePoints = 33

    /// The version of this schema; it changes only when a field changes meaning or goes away.
    public var schemaVersion = 2
    /// The slomo that made the plan (`SlomoVersion.current`).
    public var slomoVersion = SlomoVersion.current
    /// The clips in order.
    public var clips: [Clip]
    /// The segments in output order.
    public var segments: [Segment]
    /// The total output duration.
    public var outputDuration: MediaTime
    /// The CFR output frame rate as text; nil for passthrough.
    public var cfrFrameRate: String?
    /// The total number of output frames at the CFR rate; nil for passthrough.
    public var outputFrames: Int?
    /// The total number of source frames; nil when a clip's frame rate is unknown.
    public var sourceFrames: Int?

    /// The plan of a composition's map, exported at `cfrFrameRate` (nil: passthrough), with
    /// `defaultAudio` for segments whose section names no algorithm. With `frameTimes` (by clip
    /// index), a variable-frame-rate source's frames are counted, not derived from its nominal
    /// rate. Throws `.overflow` only for absurd frame counts.
    public init(_ map: CompositionMap, cfrFrameRate: Rational? = nil, defaultAudio: TimePitchAlgorithm? = nil,
                frameTimes: [Int: SourceFrameTimes] = [:]) throws {
        clips = map.entries.enumerated().map { index, entry in
            Clip(source: entry.clip.source, sourceStart: entry.clip.range.start,
                 sourceEnd: entry.clip.range.end, frameRate: entry.clip.frameRate?.description,
                 variableFrameRate: frameTimes[index]?.isVariableFrameRate)
        }
        segments = try map.entries.enumerated().flatMap { index, entry in
            try entry.map.segments.map { segment in
                try Segment(segment, clip: index, frameRate: entry.clip.frameRate, frameTimes: frameTimes[index],
                            cfrFrameRate: cfrFrameRate, defaultAudio: defaultAudio)
            }
        }
        outputDuration = map.outputDuration
        self.cfrFrameRate = cfrFrameRate?.description
        outputFrames = try cfrFrameRate.map { try Plan.frames(in: TimeRange(start: .zero, duration: map.outputDuration), at: $0) }
        sourceFrames = segments.contains { $0.sourceFrames == nil } ? nil : segments.reduce(0) { $0 + $1.sourceFrames! }
    }

    /// The same plan for sources without sound: no segment names an audio algorithm.
    public func withoutAudio() -> Plan {
        var plan = self
        for index in plan.segments.indices { plan.segments[index].audio = nil }
        return plan
    }

    /// The plan of one clip's map with source frames at `sourceFrameRate`.
    public init(_ map: TimeMap, source: String, sourceFrameRate: Rational?, cfrFrameRate: Rational? = nil,
                defaultAudio: TimePitchAlgorithm? = nil) throws {
        let clip = try SlomoCore.Clip(source: source, range: map.source, sections: map.sections, frameRate: sourceFrameRate)
        try self.init(Composition([clip]).timeMap(), cfrFrameRate: cfrFrameRate, defaultAudio: defaultAudio)
    }

    /// The JSON form: pretty-printed with sorted keys, nulls omitted.
    public func jsonText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// Frames at `n / frameRate` whose time lies in `range`: ⌈end·fps⌉ − ⌈start·fps⌉.
    static func frames(in range: TimeRange, at frameRate: Rational) throws -> Int {
        let period = frameRate.reciprocal
        let first = try range.start.ticks(in: period, rounding: .up)
        let end = try range.end.ticks(in: period, rounding: .up)
        return Int(end - first)
    }
}

extension Plan.Segment {
    init(_ segment: TimeMap.Segment, clip: Int, frameRate: Rational?, frameTimes: SourceFrameTimes?,
         cfrFrameRate: Rational?, defaultAudio: TimePitchAlgorithm?) throws {
        self.clip = clip
        section = segment.section
        sourceStart = segment.source.start
        sourceEnd = segment.source.end
        outputStart = segment.output.start
        outputEnd = segment.output.end
        rate = segment.source.duration.doubleSeconds / segment.output.duration.doubleSeconds
        rateText = segment.shape.description
        switch segment.shape {
        case .constant: break
        case .reversed:
            reversed = true
            rate = -rate
        case .hold(let audio): hold = audio.rawValue
        case .ramp(let from, let to), .eased(let from, let to, _):
            rampFrom = from.doubleValue
            rampTo = to.doubleValue
            ease = Ease.linear.description
            if case .eased(_, _, let curve) = segment.shape {
                ease = curve.description
                self.curve = (0..<Plan.curvePoints).map { index in
                    let offset = MediaTime.nanoseconds(segment.source.duration.doubleSeconds * Double(index) / Double(Plan.curvePoints - 1))
                    let source = MediaTime.min(segment.source.start + offset, segment.source.end)
                    return Plan.CurvePoint(source: source.doubleSeconds, output: segment.outputTime(at: source).doubleSeconds,
                                      rate: 1 / segment.stretch(at: source))
                }
            }
        }
        effectiveFrameRate = segment.effectiveFrameRate(sourceFrameRate: frameRate, frameTimes: frameTimes)?.doubleValue
        if let frameTimes, frameTimes.isVariableFrameRate {
            sourceFrames = frameTimes.count(in: segment.source)
        } else {
            sourceFrames = try frameRate.map { try Plan.frames(in: segment.source, at: $0) }
        }
        outputFrames = try cfrFrameRate.map { try Plan.frames(in: segment.output, at: $0) }
        audio = segment.isHold ? nil : segment.audio ?? defaultAudio
        pitch = segment.pitch
    }
}
