/// The map from source time to output time that a clip's sections define: video timestamps,
/// audio samples, progress and plans all come from this one object.
///
/// The map covers `source` (a clip's range of its file) and starts at `outputStart`. It is a
/// list of `segments` that tile the source range and the output range in the same order
/// without gaps: the sections (constant parts and ramps), rate-1 stretches between them and
/// freeze frames. Within a segment it is continuous and strictly increasing, except in a
/// reversed section's segment, where it strictly decreases (the section's end plays first) and
/// which the map enters and leaves by a cut; at a freeze one source time plays for the whole
/// hold. Output time to source time is therefore a function (`sourceTime(at:)`) and source
/// time to output time too, a range at a hold (`outputTime(at:)`, `outputRange(at:)`).
/// Times outside `source` are extrapolated linearly at the speed of the map's edge (for DTS
/// before zero and the like).
///
/// **Ramp shape.** Within a linear ramp (the default `Ease`), *1/rate* (output seconds per
/// source second) is linear in source time: `1/r(s) = k0 + (k1 − k0)·x/L` for `x = s − start` over a ramp of source length
/// `L`. Output time is the integral of 1/rate, `k0·x + (k1 − k0)·x²/(2L)`: a quadratic with
/// rational coefficients, so the forward map is evaluated exactly in rational arithmetic, the
/// ramp's output duration is exactly `L·(k0 + k1)/2`, and the inverse is the root of a
/// quadratic, which has a closed form (computed in `Double` and rounded to the nanosecond, far
/// inside the 1 µs the design asks for). Making the *rate* linear instead would put a logarithm
/// into the forward map and an exponential into its inverse: neither exact nor simpler. Where
/// two sections touch, one ramp spans the last `rampOut` of the first and the first `rampIn` of
/// the second, so the rate itself is continuous too; at a rate-1 neighbour or a clip edge the
/// ramp eases from or to rate 1. Other eases bend 1/rate along their curve between the same
/// ends (`Ease`, `EasedRamp`): their integrals are evaluated in `Double` to the nanosecond.
///
/// Lookups are a binary search over the segments and allocate nothing; constant segments are
/// one exact multiply-add in 64-bit integers (128-bit when that overflows).
public struct TimeMap: Hashable, Sendable {
    /// The source range the map covers.
    public let source: TimeRange
    /// The output time of `source.start`.
    public let outputStart: MediaTime
    /// The output range the map produces.
    public let output: TimeRange
    /// The sections, validated, snapped when a frame rate was given, and sorted by start.
    public let sections: [Section]
    /// The freeze frames, validated, snapped to the frame they hold, and sorted.
    public let freezes: [Freeze]
    /// The segments, in order, tiling `source` and the output range without gaps.
    public let segments: [Segment]

    private let sourceStarts: [MediaTime]
    private let outputStarts: [MediaTime]
    private let before: Affine, beforeInverse: Affine
    private let after: Affine, afterInverse: Affine

    /// The map of `sections` and `freezes` over the source range `source`, starting at
    /// `outputStart`. With a `frameRate`, section edges first snap to source frames
    /// (`Section.snapped`, frames at `n / frameRate`) and freezes to the frame they hold.
    /// Throws the errors of `Section.validated(_:in:)` and `Freeze.validated` (`.pastEnd`,
    /// `.overlap`), `.emptyRange` for an empty source range, and `.overflow` when exact times
    /// do not fit.
    public init(sections: [Section], freezes: [Freeze] = [], source: TimeRange, outputStart: MediaTime = .zero,
                frameRate: Rational? = nil) throws {
        guard !source.isEmpty else {
            throw TimeModelError(.emptyRange, "the clip's source range \(source) is empty")
        }
        var sorted = try Section.validated(sections, in: source)
        var holds = freezes
        if let frameRate {
            sorted = try Section.validated(sorted.map { try $0.snapped(frameRate: frameRate, clipEnd: source.end) },
                                           in: source)
            holds = try holds.map { try $0.snapped(frameRate: frameRate) }
        }
        holds = try Freeze.validated(holds, in: source, sections: sorted)
        var pieces: [Piece] = []
        var cursor = source.start
        for (index, section) in sorted.enumerated() {
            if cursor < section.range.start {
                pieces.append(Piece(gap: TimeRange(start: cursor, end: section.range.start)))
            }
            pieces.append(Piece(section, index: index))
            cursor = section.range.end
        }
        if cursor < source.end {
            pieces.append(Piece(gap: TimeRange(start: cursor, end: source.end)))
        }
        // The ramp at each boundary between pieces: where a ramp-out meets a ramp-in, one ramp
        // spans both; the map's edges have a rate-1 neighbour without a ramp.
        let boundaries = [source.start] + pieces.map(\.range.end)
        let ramps = try boundaries.indices.map { index in
            try Piece.ramp(between: index == 0 ? .edge : pieces[index - 1],
                           and: index == pieces.count ? .edge : pieces[index], at: boundaries[index])
        }

        var segments: [Segment] = []
        var out = outputStart
        var rampStarts: [Int: MediaTime] = [:]    // output time where each eased ramp starts
        var pendingHolds = holds[...]
        for (index, piece) in pieces.enumerated() {
            for part in piece.parts {
                let boundary = index + (part.ramp == .out ? 1 : 0)
                let ramp = part.ramp.map { _ in ramps[boundary] }
                var range = part.range
                // A freeze holds inside a rate-1 stretch (splitting it) or at a part's start.
                while let hold = pendingHolds.first, hold.at < range.end {
                    if hold.at > range.start {
                        let before = TimeRange(start: range.start, end: hold.at)
                        segments.append(try Segment.make(source: before, outputStart: out, ramp: nil, rampOutputStart: nil,
                                                         constant: piece.k, section: piece.section, audio: piece.audio, pitch: piece.pitch,
                                                         frames: piece.frames))
                        out = segments.last!.output.end
                        range = TimeRange(start: hold.at, end: range.end)
                    }
                    segments.append(try Segment(holding: hold.at, outputStart: out, duration: hold.duration, audio: hold.audio))
                    out = segments.last!.output.end
                    // An eased ramp open across the hold goes on after it.
                    for key in rampStarts.keys { rampStarts[key] = try rampStarts[key]!.adding(hold.duration) }
                    pendingHolds.removeFirst()
                }
                if ramp != nil, rampStarts[boundary] == nil { rampStarts[boundary] = out }
                let segment = piece.reversed
                    ? try Segment(reversing: range, outputStart: out, rate: try Rate(piece.k.reciprocal), section: piece.section,
                                  audio: piece.audio, pitch: piece.pitch, frames: piece.frames)
                    : try Segment.make(source: range, outputStart: out, ramp: ramp, rampOutputStart: rampStarts[boundary],
                                       constant: piece.k, section: piece.section, audio: piece.audio, pitch: piece.pitch, frames: piece.frames)
                segments.append(segment)
                out = segment.output.end
            }
        }
        try self.init(source: source, outputStart: outputStart, sections: sorted, freezes: holds, segments: segments)
    }

    /// The map made of `segments`, which must be non-empty and tile `source` in order from output
    /// time `outputStart` without gaps (except after a reversed segment cut short for playback,
    /// `trimmed(fromOutput:)`); `sections` is what their `section` indices refer to.
    /// Outside `source` the map extrapolates at the edge segments' rates. Throws `.overflow`
    /// when that extrapolation is not representable exactly.
    init(source: TimeRange, outputStart: MediaTime, sections: [Section], freezes: [Freeze] = [], segments: [Segment]) throws {
        precondition(!segments.isEmpty, "a time map needs at least one segment")
        assert(segments.first!.source.start == source.start && segments.last!.source.end == source.end
               && segments.first!.output.start == outputStart
               && zip(segments, segments.dropFirst()).allSatisfy {
                   ($0.source.end == $1.source.start || ($0.isReversed && $0.source.end < $1.source.start))
                       && $0.output.end == $1.output.start
               }, "segments do not tile \(source) from output \(outputStart)")
        let out = segments.last!.output.end
        guard let firstK = segments.lazy.compactMap(\.shape.startStretch).first,
              let lastK = segments.reversed().lazy.compactMap(\.shape.endStretch).first,
              let before = Affine(through: source.start, outputStart, slope: firstK),
              let beforeInverse = Affine(through: outputStart, source.start, slope: firstK.reciprocal),
              let after = Affine(through: source.end, out, slope: lastK),
              let afterInverse = Affine(through: out, source.end, slope: lastK.reciprocal) else {
            throw TimeModelError(.overflow, "the map of \(source) is not representable exactly")
        }
        self.source = source
        self.outputStart = outputStart
        self.output = TimeRange(start: outputStart, end: out)
        self.sections = sections
        self.freezes = freezes
        self.segments = segments
        self.sourceStarts = segments.map(\.source.start)
        self.outputStarts = segments.map(\.output.start)
        self.before = before
        self.beforeInverse = beforeInverse
        self.after = after
        self.afterInverse = afterInverse
    }

    /// The map of `sections` over a whole clip `0 ..< clipDuration`, starting at output zero;
    /// with a `frameRate`, section edges snap to source frames.
    public init(sections: [Section], clipDuration: MediaTime, frameRate: Rational? = nil) throws {
        try self.init(sections: sections, source: TimeRange(start: .zero, duration: clipDuration),
                      frameRate: frameRate)
    }

    /// The total output duration; equals the sum of the segments' output durations.
    public var outputDuration: MediaTime { output.duration }

    /// The output time at which `sourceTime` plays (forward map). At a freeze, source time
    /// `at` plays for the whole hold: this is where it starts.
    public func outputTime(at sourceTime: MediaTime) -> MediaTime {
        if sourceTime < source.start { return before(sourceTime) }
        if sourceTime >= source.end { return after(sourceTime) }
        let index = TimeMap.lastIndex(in: sourceStarts, notAfter: sourceTime)
        if index > 0, segments[index - 1].isHold, segments[index - 1].source.start == sourceTime {
            return segments[index - 1].output.start
        }
        return segments[index].outputTime(at: sourceTime)
    }

    /// The output range over which `sourceTime` plays: one instant, or the whole hold of a
    /// freeze at it.
    public func outputRange(at sourceTime: MediaTime) -> TimeRange {
        let index = TimeMap.lastIndex(in: sourceStarts, notAfter: sourceTime)
        if index > 0, segments[index - 1].isHold, segments[index - 1].source.start == sourceTime {
            return segments[index - 1].output
        }
        let time = outputTime(at: sourceTime)
        return TimeRange(start: time, end: time)
    }

    /// The source time that plays at `outputTime` (inverse map).
    public func sourceTime(at outputTime: MediaTime) -> MediaTime {
        if outputTime < output.start { return beforeInverse(outputTime) }
        if outputTime >= output.end { return afterInverse(outputTime) }
        return segments[TimeMap.lastIndex(in: outputStarts, notAfter: outputTime)].sourceTime(at: outputTime)
    }

    /// The index of the segment whose source range contains `sourceTime`, clamped to the
    /// first or last segment outside the map.
    public func segmentIndex(containingSource sourceTime: MediaTime) -> Int {
        TimeMap.lastIndex(in: sourceStarts, notAfter: sourceTime)
    }

    /// The index of the segment whose output range contains `outputTime`, clamped to the
    /// first or last segment outside the map.
    public func segmentIndex(containingOutput outputTime: MediaTime) -> Int {
        TimeMap.lastIndex(in: outputStarts, notAfter: outputTime)
    }

    /// The last index whose start is ≤ `time` (0 when none is).
    private static func lastIndex(in starts: [MediaTime], notAfter time: MediaTime) -> Int {
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= time { low = middle } else { high = middle - 1 }
        }
        return low
    }
}

extension TimeMap.Shape {
    /// 1/rate where the segment starts (1/speed in a reversed one); nil for a hold (no source
    /// time passes).
    public var startStretch: Rational? {
        switch self {
        case .constant(let rate), .reversed(let rate): return rate.stretch
        case .ramp(let from, _), .eased(let from, _, _): return from.stretch
        case .hold: return nil
        }
    }

    /// 1/rate where the segment ends; nil for a hold.
    public var endStretch: Rational? {
        switch self {
        case .constant(let rate), .reversed(let rate): return rate.stretch
        case .ramp(_, let to), .eased(_, let to, _): return to.stretch
        case .hold: return nil
        }
    }
}

