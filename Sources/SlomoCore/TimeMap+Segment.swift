extension TimeMap {
    /// How the rate behaves within a segment.
    public enum Shape: Hashable, Sendable, CustomStringConvertible {
        /// One rate throughout: output duration = source duration / rate, exactly.
        case constant(Rate)
        /// The rate eases from `from` to `to`, with 1/rate linear in source time (see `TimeMap`).
        case ramp(from: Rate, to: Rate)
        /// The rate eases from `from` to `to` along `ease` (a part of an eased ramp, whose
        /// rates at a cut inside the ramp are rounded to nine digits).
        case eased(from: Rate, to: Rate, ease: Ease)
        /// A freeze frame: no source time passes while the output does (`Freeze`).
        case hold(audio: Freeze.Audio)
        /// One speed throughout, backwards: the segment's source end plays first, and output
        /// duration = source duration / rate, exactly.
        case reversed(Rate)

        /// `"0.25"`, `"1→0.25"`, `"1→0.25 smooth"`, `"hold"` or `"-1"`.
        public var description: String {
            switch self {
            case .constant(let rate): return "\(rate)"
            case .reversed(let rate): return Rate.text(rate, reversed: true)
            case .ramp(let from, let to): return "\(from)→\(to)"
            case .eased(let from, let to, let ease): return "\(from)→\(to) \(ease)"
            case .hold: return "hold"
            }
        }
    }

    /// One piece of the map: a source range, the output range it becomes, and how the rate
    /// behaves in between.
    public struct Segment: Hashable, Sendable {
        /// The source time range, in the source file's time.
        public let source: TimeRange
        /// The output time range it plays in.
        public let output: TimeRange
        /// Constant rate or ramp.
        public let shape: Shape
        /// Index into `TimeMap.sections` of the section this segment belongs to; nil for the
        /// rate-1 stretches between sections.
        public let section: Int?
        /// The section's audio algorithm; nil means the export's default.
        public let audio: TimePitchAlgorithm?
        /// The section's pitch shift in semitones (its speed kept); nil for none of its own.
        public let pitch: Double?
        /// The section's CFR frame choice; nil means the export's default.
        public let frames: FrameChoice?

        let evaluator: Evaluator

        enum Evaluator: Hashable, Sendable {
            case affine(forward: Affine, inverse: Affine)
            /// output − outStart = k0·x + half·x², x = source − sourceStart (1/rate = k0 + 2·half·x).
            case ramp(k0: Rational, half: Rational)
            /// A part of an eased ramp.
            case eased(EasedRamp)
            /// A freeze: every output time shows `source.start`.
            case hold
        }

        /// A hold of the frame at `time` for `duration`, from output time `outputStart`.
        init(holding time: MediaTime, outputStart: MediaTime, duration: MediaTime, audio: Freeze.Audio) throws {
            source = TimeRange(start: time, end: time)
            output = TimeRange(start: outputStart, end: try outputStart.adding(duration))
            shape = .hold(audio: audio)
            section = nil
            self.audio = nil
            pitch = nil
            frames = nil
            evaluator = .hold
        }

        /// True for a freeze frame.
        public var isHold: Bool { if case .hold = shape { true } else { false } }

        /// True for a reversed section's segment.
        public var isReversed: Bool { if case .reversed = shape { true } else { false } }

        /// A segment that plays `source` backwards at `rate`: output time `outputStart` shows
        /// `source.end` (just before it, as a picture on screen) and the end shows `source.start`.
        /// Throws `.overflow` when its end does not fit.
        init(reversing source: TimeRange, outputStart: MediaTime, rate: Rate, section: Int?,
             audio: TimePitchAlgorithm?, pitch: Double?, frames: FrameChoice?) throws {
            let duration = try source.duration.divided(by: rate.value)
            _ = try outputStart.adding(duration)    // the end must fit too
            guard let forward = Affine(through: source.end, outputStart, slope: Rational(-1) * rate.stretch),
                  let inverse = Affine(through: outputStart, source.end, slope: Rational(-1) * rate.value) else {
                throw TimeModelError(.overflow, "reversed segment \(source) is not representable exactly")
            }
            self.source = source
            self.output = TimeRange(start: outputStart, duration: duration)
            self.shape = .reversed(rate)
            self.section = section
            self.audio = audio
            self.pitch = pitch
            self.frames = frames
            self.evaluator = .affine(forward: forward, inverse: inverse)
        }

        /// A constant segment; throws `.overflow` when its end does not fit.
        init(source: TimeRange, outputStart: MediaTime, rate: Rate, section: Int?,
             audio: TimePitchAlgorithm?, pitch: Double?, frames: FrameChoice?) throws {
            let duration = try source.duration.divided(by: rate.value)
            _ = try outputStart.adding(duration)    // the end must fit too
            guard let forward = Affine(through: source.start, outputStart, slope: rate.stretch),
                  let inverse = Affine(through: outputStart, source.start, slope: rate.value) else {
                throw TimeModelError(.overflow, "segment \(source) is not representable exactly")
            }
            self.source = source
            self.output = TimeRange(start: outputStart, duration: duration)
            self.shape = .constant(rate)
            self.section = section
            self.audio = audio
            self.pitch = pitch
            self.frames = frames
            self.evaluator = .affine(forward: forward, inverse: inverse)
        }

        /// A segment with 1/rate going linearly from `k0` to `k1` over the source range: a ramp,
        /// or a constant segment when they are equal. Throws `.overflow` when not representable.
        static func make(source: TimeRange, outputStart: MediaTime, k0: Rational, k1: Rational,
                         section: Int?, audio: TimePitchAlgorithm?, pitch: Double?, frames: FrameChoice?) throws -> Segment {
            if k0 == k1 {
                return try Segment(source: source, outputStart: outputStart, rate: Rate(k0.reciprocal),
                                   section: section, audio: audio, pitch: pitch, frames: frames)
            }
            return try Segment(rampOver: source, outputStart: outputStart, k0: k0, k1: k1,
                               section: section, audio: audio, pitch: pitch, frames: frames)
        }

        private init(rampOver source: TimeRange, outputStart: MediaTime, k0: Rational, k1: Rational,
                     section: Int?, audio: TimePitchAlgorithm?, pitch: Double?, frames: FrameChoice?) throws {
            let from = try Rate(k0.reciprocal), to = try Rate(k1.reciprocal)
            // ∫₀ᴸ (k0 + (k1−k0)·x/L) dx = L·(k0 + k1)/2
            let overflow = TimeModelError(.overflow, "ramp over \(source) is not representable exactly")
            guard let sum = k0.addingReportingOverflow(k1),
                  let difference = k1.subtractingReportingOverflow(k0),
                  let twiceLength = source.duration.seconds.multipliedReportingOverflow(by: Rational(2)),
                  let half = difference.dividedReportingOverflow(by: twiceLength) else { throw overflow }
            let duration = try source.duration.multiplied(by: sum).divided(by: Rational(2))
            _ = try outputStart.adding(duration)    // the end must fit too
            self.source = source
            self.output = TimeRange(start: outputStart, duration: duration)
            self.shape = .ramp(from: from, to: to)
            self.section = section
            self.audio = audio
            self.pitch = pitch
            self.frames = frames
            self.evaluator = .ramp(k0: k0, half: half)
        }

        /// A part `source` of the eased ramp `ramp`, whose rates at its ends are `from` and `to`;
        /// its output range is the ramp's function at its ends, so parts of one ramp tile.
        init(source: TimeRange, along ramp: EasedRamp, from: Rate, to: Rate, section: Int?,
             audio: TimePitchAlgorithm?, pitch: Double?, frames: FrameChoice?) {
            self.source = source
            self.output = TimeRange(start: ramp.outputTime(at: source.start), end: ramp.outputTime(at: source.end))
            self.shape = .eased(from: from, to: to, ease: ramp.ease)
            self.section = section
            self.audio = audio
            self.pitch = pitch
            self.frames = frames
            self.evaluator = .eased(ramp)
        }

        /// This segment from `cut` (inside its source range) to its end, for playback from
        /// there: the same rates, and output times equal to this segment's at every source
        /// time after `cut` (before it, for a reversed segment, which plays that part after). Throws `.overflow` when that is not representable exactly.
        func suffix(from cut: MediaTime) throws -> Segment {
            if case .reversed(let rate) = shape {
                // Backwards, what plays after the cut is the source before it.
                return try Segment(reversing: TimeRange(start: source.start, end: cut), outputStart: outputTime(at: cut),
                                   rate: rate, section: section, audio: audio, pitch: pitch, frames: frames)
            }
            guard cut > source.start else { return self }
            let rest = TimeRange(start: cut, end: source.end)
            switch evaluator {
            case .hold:
                return self
            case .eased(let ramp):
                guard case .eased(_, let to, _) = shape else { preconditionFailure("an eased evaluator has an eased shape") }
                let from = try Rate(Rational(approximating: ramp.stretch(at: cut)).reciprocal)
                return Segment(source: rest, along: ramp, from: from, to: to, section: section, audio: audio, pitch: pitch, frames: frames)
            case .affine, .ramp:
                // 1/rate is linear in source time: its value at the cut is k0 + (k1 − k0)·(cut − start)/L.
                let k0 = shape.startStretch!, k1 = shape.endStretch!    // neither evaluator is a hold
                let overflow = TimeModelError(.overflow, "segment \(source) cut at \(cut) s is not representable exactly")
                guard let difference = k1.subtractingReportingOverflow(k0),
                      let offset = cut.seconds.subtractingReportingOverflow(source.start.seconds),
                      let fraction = offset.dividedReportingOverflow(by: source.duration.seconds),
                      let step = difference.multipliedReportingOverflow(by: fraction),
                      let kCut = k0.addingReportingOverflow(step) else { throw overflow }
                let piece = try Segment.make(source: rest, outputStart: outputTime(at: cut), k0: kCut, k1: k1,
                                             section: section, audio: audio, pitch: pitch, frames: frames)
                // Unequal only when outputTime(at: cut) had to round: the segments would not tile.
                guard piece.output.end == output.end else { throw overflow }
                return piece
            }
        }

        /// This segment played `factor` times faster: output times divided by `factor` exactly.
        func scaled(by factor: Rational) throws -> Segment {
            let overflow = TimeModelError(.overflow, "segment \(source) played at \(factor)x is not representable exactly")
            if case .eased(let ramp) = evaluator, case .eased(let from, let to, _) = shape {
                guard let faster = ramp.scaled(by: factor) else { throw overflow }
                return Segment(source: source, along: faster, from: try Rate(from.value * factor), to: try Rate(to.value * factor),
                               section: section, audio: audio, pitch: pitch, frames: frames)
            }
            if case .reversed(let rate) = shape {
                return try Segment(reversing: source, outputStart: try output.start.divided(by: factor),
                                   rate: try Rate(rate.value * factor), section: section, audio: audio, pitch: pitch, frames: frames)
            }
            if case .hold(let sound) = shape {
                let start = try output.start.divided(by: factor)
                return try Segment(holding: source.start, outputStart: start,
                                   duration: try output.end.divided(by: factor).subtracting(start), audio: sound)
            }
            guard let k0 = shape.startStretch?.dividedReportingOverflow(by: factor),
                  let k1 = shape.endStretch?.dividedReportingOverflow(by: factor) else { throw overflow }
            return try Segment.make(source: source, outputStart: try output.start.divided(by: factor),
                                    k0: k0, k1: k1, section: section, audio: audio, pitch: pitch, frames: frames)
        }

        /// 1/rate (output seconds per source second) at `sourceTime`, which should lie in `source`;
        /// infinite in a hold; 1/speed in a reversed segment.
        public func stretch(at sourceTime: MediaTime) -> Double {
            switch evaluator {
            case .hold: return .infinity
            case .affine(let forward, _): return abs(forward.slope.doubleValue)
            case .ramp(let k0, let half):
                return k0.doubleValue + 2 * half.doubleValue * (sourceTime.doubleSeconds - source.start.doubleSeconds)
            case .eased(let ramp): return ramp.stretch(at: sourceTime)
            }
        }

        /// Source frames per output second for a source at `sourceFrameRate`: exactly
        /// `sourceFrameRate × rate` for a constant segment, the average over a ramp.
        public func effectiveFrameRate(sourceFrameRate: Rational) -> Rational {
            let ratio = source.duration.seconds / output.duration.seconds
            return sourceFrameRate.multipliedReportingOverflow(by: ratio)
                ?? Rational(Int64((sourceFrameRate.doubleValue * ratio.doubleValue * 1e6).rounded()), 1_000_000)
        }

        /// The output time of `sourceTime`, which should lie in `source`: exact for constant
        /// segments (nanosecond-rounded only if the exact value overflows 64 bits), exact for
        /// ramps where the rational quadratic fits in 64 bits, otherwise to the nanosecond.
        public func outputTime(at sourceTime: MediaTime) -> MediaTime {
            switch evaluator {
            case .affine(let forward, _):
                return forward(sourceTime)
            case .ramp(let k0, let half):
                let a = source.start.seconds, out = output.start.seconds
                if let x = sourceTime.seconds.subtractingReportingOverflow(a),
                   let linear = x.multipliedReportingOverflow(by: k0),
                   let square = x.multipliedReportingOverflow(by: x),
                   let quadratic = square.multipliedReportingOverflow(by: half),
                   let offset = linear.addingReportingOverflow(quadratic),
                   let result = out.addingReportingOverflow(offset) {
                    return MediaTime(seconds: result)
                }
                let x = sourceTime.doubleSeconds - source.start.doubleSeconds
                return MediaTime.nanoseconds(output.start.doubleSeconds
                                             + k0.doubleValue * x + half.doubleValue * x * x)
            case .eased(let ramp):
                return ramp.outputTime(at: sourceTime)
            case .hold:
                return output.start
            }
        }

        /// The source time that plays at `outputTime`, which should lie in `output`: exact for
        /// constant segments; on ramps the root of the quadratic, rounded to the nanosecond.
        public func sourceTime(at outputTime: MediaTime) -> MediaTime {
            switch evaluator {
            case .affine(_, let inverse):
                return inverse(outputTime)
            case .ramp(let k0, let half):
                // Solve half·x² + k0·x − o = 0 in the cancellation-free form 2o / (k0 + √(k0² + 4·half·o)).
                let o = (try? outputTime.subtracting(output.start))?.doubleSeconds
                    ?? outputTime.doubleSeconds - output.start.doubleSeconds
                let k = k0.doubleValue
                let root = (k * k + 4 * half.doubleValue * o).squareRoot()
                let x = Swift.min(Swift.max(2 * o / (k + root), 0), source.duration.doubleSeconds)
                let offset = MediaTime.nanoseconds(x)
                return (try? source.start.adding(offset))
                    ?? MediaTime.nanoseconds(source.start.doubleSeconds + x)
            case .eased(let ramp):
                return ramp.sourceTime(at: outputTime, in: source)
            case .hold:
                return source.start
            }
        }
    }
}
