/// A section as written, before it is resolved against its clip: the edges may be frame
/// numbers (`f480`) or the clip's end (`end`), which need the clip's frame rate and range.
///
/// This is what the section syntax (`2-4x0.25:ramp=0.3`, see docs/sections.md) and edit
/// scripts produce; `resolved(in:frameRate:origin:)` turns it into a `Section`.
public struct SectionSpec: Hashable, Sendable, CustomStringConvertible {
    /// A section edge.
    public enum Position: Hashable, Sendable, CustomStringConvertible {
        /// A source time.
        case time(MediaTime)
        /// A source frame number: frame `n` is at `n / frameRate`.
        case frame(Int64)
        /// A SMPTE timecode, which names a source frame at the source's rate.
        case timecode(SMPTETimecode)
        /// The end of the clip.
        case end

        /// `"2.5"`, `"f480"` or `"end"`.
        public var description: String {
            switch self {
            case .time(let time): return time.exactDescription
            case .frame(let frame): return "f\(frame)"
            case .timecode(let timecode): return timecode.description
            case .end: return "end"
            }
        }

        /// Parses a time (`MediaTime(parsing:)`: seconds, `1.5s`, `1500ms`, `01:02.5`), a
        /// SMPTE timecode (`00:00:02:15`, drop-frame `00:01:00;02`), a frame (`f480`) or `end`.
        public init(parsing text: String) throws {
            let trimmed = text.trimmingSpaces
            if trimmed == "end" {
                self = .end
            } else if let timecode = SMPTETimecode(parsing: trimmed) {
                self = .timecode(timecode)
            } else if trimmed.first == "f" {
                guard let frame = Int64(trimmed.dropFirst()), frame >= 0, trimmed.dropFirst().first != "+" else {
                    throw TimeModelError(.unparseable, "expected a frame number such as f480", subject: "'\(text)'")
                }
                self = .frame(frame)
            } else {
                self = .time(try MediaTime(parsing: trimmed))
            }
        }

        /// The source time of this edge in `clip` at `frameRate`.
        func time(in clip: TimeRange, frameRate: Rational?) throws -> MediaTime {
            switch self {
            case .time(let time): return time
            case .end: return clip.end
            case .frame(let frame):
                guard let frameRate, frameRate.numerator > 0 else {
                    throw TimeModelError(.invalidValue, "frame number f\(frame) needs the source frame rate, which is unknown")
                }
                return try MediaTime(value: frame, timescale: 1).divided(by: frameRate)
            case .timecode(let timecode):
                guard let frameRate, frameRate.numerator > 0 else {
                    throw TimeModelError(.invalidValue, "timecode \(timecode) needs the source frame rate, which is unknown")
                }
                return try MediaTime(value: try timecode.frameNumber(at: frameRate), timescale: 1).divided(by: frameRate)
            }
        }
    }

    /// Where the section starts.
    public var start: Position
    /// Where the section ends.
    public var end: Position
    /// The playback rate between the ramps (its speed, when `reversed`).
    public var rate: Rate
    /// True when the section plays backwards (a negative rate in the syntax: `4-6x-0.5`).
    public var reversed: Bool
    /// Source duration of the ramp in (see `Section`).
    public var rampIn: MediaTime
    /// Source duration of the ramp out (see `Section`).
    public var rampOut: MediaTime
    /// The curve of the ramps (see `Section`); nil is linear unless a touching section says.
    public var ease: Ease?
    /// The audio algorithm; nil means the export's default.
    public var audio: TimePitchAlgorithm?
    /// Semitones the section's sound is moved by (see `Section`); nil: none of its own.
    public var pitch: Double?
    /// The CFR frame choice; nil means the export's default.
    public var frames: FrameChoice?

    /// A section spec; nothing is checked until it is resolved.
    public init(start: Position, end: Position, rate: Rate, reversed: Bool = false, rampIn: MediaTime = .zero,
                rampOut: MediaTime = .zero, ease: Ease? = nil, audio: TimePitchAlgorithm? = nil, pitch: Double? = nil,
                frames: FrameChoice? = nil) {
        self.start = start
        self.end = end
        self.rate = rate
        self.reversed = reversed
        self.rampIn = rampIn
        self.rampOut = rampOut
        self.ease = ease
        self.audio = audio
        self.pitch = pitch
        self.frames = frames
    }

    /// The spec of a resolved section, with time edges.
    public init(_ section: Section) {
        self.init(start: .time(section.range.start), end: .time(section.range.end), rate: section.rate,
                  reversed: section.reversed, rampIn: section.rampIn, rampOut: section.rampOut, ease: section.ease, audio: section.audio,
                  pitch: section.pitch, frames: section.frames)
    }

    /// The section in `clip` (the clip's range of its source file; `end` is its end) with
    /// frame numbers at `frameRate`. Errors name the section by `origin` (`section '2-4x1/4'`,
    /// `clips[0].sections[1]`), or else by its syntax, and carry it as `section`.
    /// Whether it lies inside the clip is checked with the other sections of the clip, by
    /// `Section.validated(_:in:)` or `TimeMap`.
    public func resolved(in clip: TimeRange, frameRate: Rational?, origin: SectionOrigin? = nil) throws -> Section {
        let name = origin ?? .syntax(description)
        do {
            let start = try self.start.time(in: clip, frameRate: frameRate)
            let end = try self.end.time(in: clip, frameRate: frameRate)
            guard start < end else {
                throw TimeModelError(.emptyRange, "start \(start) s must be before end \(end) s")
            }
            return try Section(range: TimeRange(start: start, end: end), rate: rate, reversed: reversed, rampIn: rampIn,
                               rampOut: rampOut, ease: ease, audio: audio, pitch: pitch, frames: frames, origin: name)
        } catch let error as TimeModelError where error.subject == nil {
            throw TimeModelError(error.kind, error.problem, section: name)
        }
    }

    /// The section syntax: `2-4x0.25:ramp-in=0.2:ramp-out=0.5:ease=smooth:audio=spectral:pitch=3:frames=blend`.
    public var description: String {
        var text = "\(start)-\(end)x" + Rate.text(rate, reversed: reversed)
        if rampIn == rampOut && rampIn != .zero {
            text += ":ramp=\(rampIn.exactDescription)"
        } else {
            if rampIn != .zero { text += ":ramp-in=\(rampIn.exactDescription)" }
            if rampOut != .zero { text += ":ramp-out=\(rampOut.exactDescription)" }
        }
        if let ease { text += ":ease=\(ease)" }
        if let audio { text += ":audio=\(audio)" }
        if let pitch { text += ":pitch=\(Self.semitones(pitch))" }
        if let frames { text += ":frames=\(frames)" }
        return text
    }

    /// Semitones as the syntax writes them: `3`, `-2.5`, `0.01` (exact decimals, no trailing zeros).
    public static func semitones(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
