import SlomoCore

/// The output frame slots of one clip of a constant-frame-rate export, and which source
/// frames they need. Slot `n` is shown at output time `n / fps`; its source time is
/// `map.sourceTime(at: n / fps)`. A clip owns the slots whose time lies in its output range.
/// With an `exposure` (shutter emulation), slot `n` also sees the source from there to
/// `map.sourceTime(at: n / fps + exposure)`.
struct SlotSchedule {
    let map: TimeMap
    let frameRate: Rational
    /// How long each slot's shutter is open, in output seconds (0: an instant).
    var exposure = Rational(0)
    /// The slots of this clip: `first ..< end` (only those of one chunk, once `restrict`ed).
    private(set) var slots: Range<Int>
    /// The clip's first slot, whatever `restrict` kept.
    private let clipStart: Int
    /// The resolved frame choice of each segment of the map (never `auto`).
    private(set) var choices: [FrameChoice]

    init(map: TimeMap, frameRate: Rational, sourceFrameRate: Rational?, frameTimes: SourceFrameTimes?,
         defaultChoice: FrameChoice) throws {
        self.map = map
        self.frameRate = frameRate
        let period = frameRate.reciprocal
        slots = Int(try map.output.start.ticks(in: period, rounding: .up)) ..< Int(try map.output.end.ticks(in: period, rounding: .up))
        clipStart = slots.lowerBound
        choices = map.segments.map { segment in
            Self.resolve(segment.frames ?? defaultChoice,
                         effectiveFrameRate: segment.effectiveFrameRate(sourceFrameRate: sourceFrameRate, frameTimes: frameTimes),
                         target: frameRate)
        }
    }

    /// `auto` becomes `nearest` where the segment's effective frame rate is at least the target
    /// (there is a real source frame for every slot) and `interpolate` (optical flow) where it
    /// is lower; `blend` when the source frame rate is unknown. `interpolate` becomes `nearest`
    /// where the effective rate reaches the target: there is nothing to invent there, and
    /// estimating flow would only burn time.
    static func resolve(_ choice: FrameChoice, effectiveFrameRate: Rational?, target: Rational) -> FrameChoice {
        let enough = effectiveFrameRate.map { $0 >= target }
        switch choice {
        case .auto: return enough.map { $0 ? .nearest : .interpolate } ?? .blend
        case .interpolate: return enough == true ? .nearest : .interpolate
        case .nearest, .blend: return choice
        }
    }

    /// Keeps only the slots in `frames`: a chunk of the output renders those alone.
    mutating func restrict(to frames: Range<Int>) {
        slots = slots.clamped(to: frames)
    }

    /// The source time decoding starts from: the first slot's, when the slots begin after the
    /// clip's own start (a chunk); nil when they start with the clip. The pictures a first
    /// `nearest`, `blend` or `interpolate` slot needs are at or after the keyframe before it.
    var decodingStart: MediaTime? {
        guard !slots.isEmpty, slots.lowerBound > clipStart else { return nil }
        return sourceTime(ofSlot: slots.lowerBound)
    }

    /// Replaces one resolved choice by another in every segment (e.g. `interpolate` by `blend`
    /// for pictures optical flow cannot take).
    mutating func replace(_ choice: FrameChoice, with other: FrameChoice) {
        choices = choices.map { $0 == choice ? other : $0 }
    }

    /// The output time of slot `n`.
    func outputTime(ofSlot n: Int) -> MediaTime {
        MediaTime(seconds: Rational(Int64(n)) * frameRate.reciprocal)
    }

    /// The source time slot `n` shows.
    func sourceTime(ofSlot n: Int) -> MediaTime { map.sourceTime(at: outputTime(ofSlot: n)) }

    /// The source time slot `n`'s shutter closes: where its exposure ends (inside the map).
    func exposureEnd(ofSlot n: Int) -> MediaTime {
        let end = MediaTime.min(outputTime(ofSlot: n) + MediaTime(seconds: exposure), map.output.end)
        // The map's end is the clip's end, not the next clip's start.
        return end == map.output.end ? map.segments.last!.source.end : map.sourceTime(at: end)
    }

    /// The frame choice of slot `n`.
    func choice(ofSlot n: Int) -> FrameChoice {
        choices[map.segmentIndex(containingOutput: outputTime(ofSlot: n))]
    }

    /// The first slot (clamped to this clip's slots) whose source time is at or after `time`.
    func firstSlot(atOrAfterSource time: MediaTime) -> Int {
        let ticks = (try? map.outputTime(at: time).ticks(in: frameRate.reciprocal, rounding: .up)) ?? Int64(slots.upperBound)
        return Int(max(Int64(slots.lowerBound), min(Int64(slots.upperBound), ticks)))
    }

    /// True when some slot of this clip sees source time in `[start, end)` (`end` nil:
    /// unbounded): its time there, or, with an exposure, its shutter open over part of it.
    func hasSlot(from start: MediaTime, to end: MediaTime?) -> Bool {
        let first = exposure.numerator == 0 ? firstSlot(atOrAfterSource: start) : firstSlot(exposedAfterSource: start)
        let last = end.map { firstSlot(atOrAfterSource: $0) } ?? slots.upperBound
        return first < last
    }

    /// The first slot (clamped to this clip's slots) whose shutter is still open at or after
    /// `time`: the first whose output time is past `time`'s less the exposure.
    private func firstSlot(exposedAfterSource time: MediaTime) -> Int {
        let open = map.outputTime(at: time) - MediaTime(seconds: exposure)
        let ticks = (try? open.ticks(in: frameRate.reciprocal, rounding: .down)).map { $0 + 1 } ?? Int64(slots.upperBound)
        return Int(max(Int64(slots.lowerBound), min(Int64(slots.upperBound), ticks)))
    }

    /// True when the source frame shown at `time` is needed by a slot, its neighbours in display
    /// order found among the frame times `known` (nil at either end). See
    /// `needsFrame(at:previous:next:)`.
    func needsFrame(at time: MediaTime, among known: [MediaTime]) -> Bool {
        var previous: MediaTime?, next: MediaTime?
        for other in known {
            if other < time, previous.map({ other > $0 }) ?? true { previous = other }
            if other > time, next.map({ other < $0 }) ?? true { next = other }
        }
        return needsFrame(at: time, previous: previous, next: next)
    }

    /// True when the source frame shown from `time` until `next` (the next frame's time; nil at
    /// the end) is needed by a slot: as the frame a `nearest` slot shows, as either neighbour of
    /// a `blend` slot (`previous` is the frame before it), or as input of `interpolate`.
    private func needsFrame(at time: MediaTime, previous: MediaTime?, next: MediaTime?) -> Bool {
        let here = choices[map.segmentIndex(containingSource: time)]
        let after = next.map { choices[map.segmentIndex(containingSource: $0)] } ?? here
        let before = previous.map { choices[map.segmentIndex(containingSource: $0)] } ?? here
        if here == .interpolate || after == .interpolate || before == .interpolate {
            return time < map.source.end && (next ?? map.source.end) > map.source.start
        }
        if hasSlot(from: time, to: next) { return true }
        if here == .blend || before == .blend, let previous { return hasSlot(from: previous, to: time) }
        return false
    }

    /// True once no slot needs source frames at or after `time`.
    func isPastLastSlot(_ time: MediaTime) -> Bool {
        guard let last = slots.last else { return true }
        return exposure.numerator == 0 ? time > sourceTime(ofSlot: last) : time >= exposureEnd(ofSlot: last)
    }
}
