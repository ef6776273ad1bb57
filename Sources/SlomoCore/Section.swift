/// A source time range played at a rate, with optional ramps and its own audio and frame
/// policy: `2-4x0.25` is source seconds 2 to 4 at rate 0.25, which lasts 8 s in the output.
///
/// A ramp-in eases the rate over the first `rampIn` of source time from the neighbouring rate
/// (the rate of a section that ends exactly where this one starts, otherwise 1) to `rate`; a
/// ramp-out eases over the last `rampOut` from `rate` to the next neighbour's rate. Both lie
/// inside the section, so `rampIn + rampOut ≤ range.duration`. `ease` is the curve of both ramps
/// (`Ease`; nil: linear, unless the touching section that shares a ramp names one). See
/// `TimeMap` for the ramp shape.
///
/// A `reversed` section plays its range backwards at `rate` (`4-6x-1`, `4-6x-0.5`): its
/// pictures and sound in reverse order, as a clip of them would play forwards. It cannot ramp
/// (the rate would pass through 0) and no neighbour's ramp may lead into it.
///
/// `origin` (the syntax it was parsed from, or a document path such as `clips[0].sections[1]`)
/// only names the section in error messages; it takes no part in equality.
public struct Section: Hashable, Sendable, CustomStringConvertible {
    /// The source time range, in the source file's time.
    public let range: TimeRange
    /// The playback rate between the ramps (its speed, when `reversed`).
    public let rate: Rate
    /// True when the section plays its range backwards.
    public let reversed: Bool
    /// Source duration over which the rate eases in from the neighbouring rate.
    public let rampIn: MediaTime
    /// Source duration over which the rate eases out to the next neighbour's rate.
    public let rampOut: MediaTime
    /// The curve of the ramps; nil leaves it to a touching section that shares a ramp, else linear.
    public let ease: Ease?
    /// The audio algorithm for this section; nil means the export's default.
    public let audio: TimePitchAlgorithm?
    /// Semitones this section's sound is moved by, its speed kept (`:pitch=3`); nil: none of
    /// its own (an export's `--pitch` applies to every section).
    public let pitch: Double?
    /// The CFR frame choice for this section; nil means the export's default.
    public let frames: FrameChoice?
    /// Where the section came from, for error messages only.
    public var origin: SectionOrigin?

    /// A section; throws `.emptyRange` when the range is empty, `.invalidValue` for a negative
    /// ramp, an ease without a ramp, a reversed section with a ramp or a pitch beyond ±24
    /// semitones or with varispeed, and `.rampTooLong` when the ramps do not fit in the range.
    public init(range: TimeRange, rate: Rate, reversed: Bool = false, rampIn: MediaTime = .zero, rampOut: MediaTime = .zero,
                ease: Ease? = nil, audio: TimePitchAlgorithm? = nil, pitch: Double? = nil, frames: FrameChoice? = nil,
                origin: SectionOrigin? = nil) throws {
        self.range = range
        self.rate = rate
        self.reversed = reversed
        self.rampIn = rampIn
        self.rampOut = rampOut
        self.ease = ease
        self.audio = audio
        self.pitch = pitch == 0 ? nil : pitch
        self.frames = frames
        self.origin = origin
        let name = self.name
        if let pitch {
            guard pitch.isFinite, abs(pitch) <= Self.maximumPitch else {
                throw TimeModelError(.invalidValue, "pitch \(SectionSpec.semitones(pitch)) is beyond the −24 … 24 semitones slomo shifts", section: name)
            }
            guard audio != .varispeed || pitch == 0 else {
                throw TimeModelError(.invalidValue, "varispeed's pitch follows its rate, so it cannot be shifted on its own: "
                                     + "use :audio=spectral, time-domain or low-latency with :pitch", section: name)
            }
        }
        guard !range.isEmpty else {
            throw TimeModelError(.emptyRange, "start \(range.start) s must be before end \(range.end) s", section: name)
        }
        guard rampIn >= .zero, rampOut >= .zero else {
            throw TimeModelError(.invalidValue, "ramps must not be negative", section: name)
        }
        guard !reversed || (rampIn == .zero && rampOut == .zero && ease == nil) else {
            throw TimeModelError(.invalidValue, "a reversed section cannot ramp (its rate would pass through 0): "
                                 + "remove :ramp and :ease; the cut to it is instant", section: name)
        }
        guard ease == nil || rampIn != .zero || rampOut != .zero else {
            throw TimeModelError(.invalidValue, "ease=\(ease!) needs a ramp to shape: add :ramp=0.3 or the like", section: name)
        }
        guard let ramps = try? rampIn.adding(rampOut), ramps <= range.duration else {
            throw TimeModelError(.rampTooLong, "ramps of \(rampIn) s + \(rampOut) s are longer than "
                                 + "the section's \(range.duration) s", section: name)
        }
    }

    /// A section over a Swift range with the same ramp in and out:
    /// `Section(.seconds(2) ..< .seconds(4), rate: 0.25, ramp: .seconds(0.3))`.
    public init(_ range: Range<MediaTime>, rate: Rate, ramp: MediaTime = .zero, ease: Ease? = nil,
                audio: TimePitchAlgorithm? = nil, pitch: Double? = nil, frames: FrameChoice? = nil) throws {
        try self.init(range: TimeRange(range), rate: rate, rampIn: ramp, rampOut: ramp, ease: ease,
                      audio: audio, pitch: pitch, frames: frames)
    }

    /// The largest pitch shift, up or down, in semitones (as `--pitch`).
    public static let maximumPitch = 24.0

    /// A section over a Swift range played backwards at `rate`:
    /// `Section(reversing: .seconds(4) ..< .seconds(6), rate: 0.5)`.
    public init(reversing range: Range<MediaTime>, rate: Rate = .normal, audio: TimePitchAlgorithm? = nil,
                pitch: Double? = nil, frames: FrameChoice? = nil) throws {
        try self.init(range: TimeRange(range), rate: rate, reversed: true, audio: audio, pitch: pitch, frames: frames)
    }

    /// The section in section syntax: `2-4x0.25:ramp-in=0.2:ramp-out=0.5:ease=smooth:audio=spectral`.
    public var description: String {
        SectionSpec(self).description
    }

    /// How the section is named in messages: its origin, or its syntax.
    public var name: SectionOrigin { origin ?? .syntax(description) }

    /// The section with its edges moved to source frame boundaries: each edge moves to the
    /// first frame whose PTS is ≥ the edge, frames being at `origin + n / frameRate`. An end
    /// past the last frame is clamped to `clipEnd`. Throws `.emptyRange` when the section is
    /// shorter than a frame, or the errors of `init` when the ramps no longer fit.
    public func snapped(frameRate: Rational, origin frameOrigin: MediaTime = .zero,
                        clipEnd: MediaTime) throws -> Section {
        func snap(_ edge: MediaTime) throws -> MediaTime {
            let frame = try edge.subtracting(frameOrigin).ticks(in: frameRate.reciprocal, rounding: .up)
            return try MediaTime(exactTicks: frame, timeBase: frameRate.reciprocal).adding(frameOrigin)
        }
        let start = try snap(range.start)
        let end = MediaTime.min(try snap(range.end), MediaTime.max(clipEnd, range.end))
        guard start < end else {
            throw TimeModelError(.emptyRange, "shorter than one frame at \(frameRate) fps", section: name)
        }
        return try Section(range: TimeRange(start: start, end: end), rate: rate, reversed: reversed, rampIn: rampIn,
                           rampOut: rampOut, ease: ease, audio: audio, pitch: pitch, frames: frames, origin: self.origin)
    }

    /// Checks that `sections` lie inside `clip` and do not overlap, and returns them sorted
    /// by start. Throws `.pastEnd` (naming the clip's duration) or `.overlap` (naming both).
    public static func validated(_ sections: [Section], in clip: TimeRange) throws -> [Section] {
        let sorted = sections.sorted { $0.range.start < $1.range.start }
        for section in sorted where !clip.contains(section.range) {
            let problem = section.range.start < clip.start
                ? "starts before the clip's start at \(clip.start) s"
                : "ends at \(section.range.end) s, past the clip's end at \(clip.end) s "
                    + "(the clip lasts \(clip.duration) s)"
            throw TimeModelError(.pastEnd, problem, section: section.name)
        }
        for (left, right) in zip(sorted, sorted.dropFirst()) where left.range.overlaps(right.range) {
            throw TimeModelError(.overlap, "overlaps \(left.name)", section: right.name)
        }
        return sorted
    }

    public static func == (lhs: Section, rhs: Section) -> Bool {
        (lhs.range, lhs.rate, lhs.rampIn, lhs.rampOut, lhs.audio, lhs.frames) == (rhs.range, rhs.rate, rhs.rampIn, rhs.rampOut, rhs.audio, rhs.frames)
            && lhs.ease == rhs.ease && lhs.reversed == rhs.reversed && lhs.pitch == rhs.pitch
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(range)
        hasher.combine(rate)
        hasher.combine(reversed)
        hasher.combine(rampIn)
        hasher.combine(rampOut)
        hasher.combine(ease)
        hasher.combine(audio)
        hasher.combine(pitch)
        hasher.combine(frames)
    }
}
