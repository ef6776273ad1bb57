/// A stretch of the source between boundaries: a section, or a rate-1 gap between sections.
struct Piece {
    /// Which ramp of its piece a part belongs to.
    enum Side { case `in`, out }

    /// A part of a piece: its ramp-in, its constant middle (no side) or its ramp-out.
    struct Part {
        let range: TimeRange
        let ramp: Side?
    }

    let range: TimeRange
    let k: Rational
    /// True for a reversed section (played backwards at 1/`k`).
    let reversed: Bool
    let rampIn: MediaTime
    let rampOut: MediaTime
    let ease: Ease?
    let name: SectionOrigin?
    let section: Int?
    let audio: TimePitchAlgorithm?
    let pitch: Double?
    let frames: FrameChoice?

    /// The rate-1 neighbour without ramps beyond either edge of the map.
    static let edge = Piece(gap: TimeRange(start: .zero, end: .zero))

    init(gap range: TimeRange) {
        self.range = range
        k = Rational(1)
        reversed = false
        rampIn = .zero
        rampOut = .zero
        ease = nil
        name = nil
        section = nil
        audio = nil
        pitch = nil
        frames = nil
    }

    init(_ section: Section, index: Int) {
        range = section.range
        k = section.rate.stretch
        reversed = section.reversed
        rampIn = section.rampIn
        rampOut = section.rampOut
        ease = section.ease
        name = section.name
        self.section = index
        audio = section.audio
        pitch = section.pitch
        frames = section.frames
    }

    /// The ramp where `left` ends and `right` starts (one of them may be `edge`): from the end
    /// of `left`'s ramp-out to the end of `right`'s ramp-in, from `left`'s 1/rate to `right`'s,
    /// along the ease either names. Throws `.invalidValue` when both name different eases, or
    /// when a ramp would lead into or out of a reversed section (through rate 0).
    static func ramp(between left: Piece, and right: Piece, at boundary: MediaTime) throws -> BoundaryRamp {
        if left.reversed || right.reversed, left.rampOut != .zero || right.rampIn != .zero,
           let name = (left.reversed ? left : right).name, let other = (left.reversed ? right : left).name {
            throw TimeModelError(.invalidValue, "touches \(other), whose ramp would lead through rate 0 into it; "
                                 + "remove that ramp or leave a gap between them", section: name)
        }
        let leftEase = left.rampOut == .zero ? nil : left.ease
        let rightEase = right.rampIn == .zero ? nil : right.ease
        if let leftEase, let rightEase, leftEase != rightEase, let name = right.name {
            throw TimeModelError(.invalidValue, "shares its ramp with \(left.name.map { "\($0)" } ?? "the section before") "
                                 + "but eases it differently (\(leftEase) and \(rightEase)); give both the same ease",
                                 section: name)
        }
        return BoundaryRamp(start: boundary - left.rampOut, length: try left.rampOut.adding(right.rampIn),
                            from: left.k, to: right.k, ease: leftEase ?? rightEase ?? .linear)
    }

    /// Ramp-in, constant middle and ramp-out, leaving out empty parts.
    var parts: [Part] {
        let middleStart = range.start + rampIn, middleEnd = range.end - rampOut
        var parts: [Part] = []
        if rampIn != .zero { parts.append(Part(range: TimeRange(start: range.start, end: middleStart), ramp: .in)) }
        if middleStart < middleEnd { parts.append(Part(range: TimeRange(start: middleStart, end: middleEnd), ramp: nil)) }
        if rampOut != .zero { parts.append(Part(range: TimeRange(start: middleEnd, end: range.end), ramp: .out)) }
        return parts
    }
}

/// A ramp between two pieces of a map: where it starts in source time, how long it lasts,
/// 1/rate at its ends and its curve.
struct BoundaryRamp {
    let start: MediaTime
    let length: MediaTime
    let from: Rational
    let to: Rational
    let ease: Ease

    /// 1/rate at `time` inside the ramp, exactly, for a linear ramp; nil when not representable.
    func linearStretch(at time: MediaTime) -> Rational? {
        guard let difference = to.subtractingReportingOverflow(from),
              let offset = time.seconds.subtractingReportingOverflow(start.seconds),
              let fraction = offset.dividedReportingOverflow(by: length.seconds),
              let step = difference.multipliedReportingOverflow(by: fraction) else { return nil }
        return from.addingReportingOverflow(step)
    }

    /// The rate at `time`, exact at the ramp's ends, rounded to nine digits inside it.
    func rate(at time: MediaTime, along eased: EasedRamp) throws -> Rate {
        if time == start { return try Rate(from.reciprocal) }
        if time == start + length { return try Rate(to.reciprocal) }
        return try Rate(Rational(approximating: eased.stretch(at: time)).reciprocal)
    }
}

extension TimeMap.Segment {
    /// The segment over `source` starting at output time `outputStart`: constant at 1/rate `k`
    /// without a `ramp`, else the part of `ramp` over `source`, whose output starts at
    /// `rampOutputStart` (an eased ramp's parts share that anchor). Throws `.overflow` when not
    /// representable exactly.
    static func make(source: TimeRange, outputStart: MediaTime, ramp: BoundaryRamp?, rampOutputStart: MediaTime?,
                     constant k: Rational, section: Int?, audio: TimePitchAlgorithm?, pitch: Double?, frames: FrameChoice?) throws -> Self {
        guard let ramp else {
            return try make(source: source, outputStart: outputStart, k0: k, k1: k, section: section, audio: audio, pitch: pitch, frames: frames)
        }
        if ramp.ease == .linear || ramp.from == ramp.to {
            guard let k0 = ramp.linearStretch(at: source.start), let k1 = ramp.linearStretch(at: source.end) else {
                throw TimeModelError(.overflow, "the ramp over \(source) is not representable exactly")
            }
            return try make(source: source, outputStart: outputStart, k0: k0, k1: k1, section: section, audio: audio, pitch: pitch, frames: frames)
        }
        let eased = EasedRamp(sourceStart: ramp.start, length: ramp.length, outputStart: rampOutputStart ?? outputStart,
                              from: ramp.from, to: ramp.to, ease: ramp.ease)
        return Self(source: source, along: eased, from: try ramp.rate(at: source.start, along: eased),
                    to: try ramp.rate(at: source.end, along: eased), section: section, audio: audio, pitch: pitch, frames: frames)
    }
}
