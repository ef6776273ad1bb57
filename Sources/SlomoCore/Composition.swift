/// An ordered list of clips, possibly from several files, with their sections: the thing that
/// is exported. Like `AVMutableComposition`, with the edits a script needs.
///
/// Edits address the **edit timeline**: the clips laid end to end at their natural speed
/// (clip `i` starts where clip `i − 1` ends), before sections retime them. `timeMap()` maps
/// the edit timeline and each clip's source time to output time.
public struct Composition: Hashable, Sendable {
    /// The clips in playing order.
    public private(set) var clips: [Clip]

    /// A composition of `clips`.
    public init(_ clips: [Clip] = []) {
        self.clips = clips
    }

    /// A composition of one whole file of `duration`.
    public init(source: String, duration: MediaTime, frameRate: Rational? = nil) throws {
        self.init([try Clip(source: source, range: TimeRange(start: .zero, duration: duration), frameRate: frameRate)])
    }

    /// A composition of one whole file of `duration` with sections in section syntax
    /// (`["2-4x0.25", "8-endx2"]`, as given to `--section`) and freezes in freeze syntax
    /// (`["3:2"]`, as given to `--freeze`). Throws the parsers' errors and those of `Clip`
    /// (overlap, past the end), each naming the text.
    public init(source: String, duration: MediaTime, frameRate: Rational?, sections texts: [String],
                freezes freezeTexts: [String] = []) throws {
        let range = TimeRange(start: .zero, duration: duration)
        let sections = try texts.map { text in
            try SectionSpec(parsing: text).resolved(in: range, frameRate: frameRate, origin: .syntax(text))
        }
        let freezes = try freezeTexts.map { try Freeze(parsing: $0, frameRate: frameRate) }
        self.init([try Clip(source: source, range: range, sections: sections, freezes: freezes, frameRate: frameRate)])
    }

    /// Holds the frame shown at `editTime` on the edit timeline for `duration` of output
    /// (`Freeze`), like an editor's freeze frame. Throws `.pastEnd` outside the timeline, and
    /// the errors of `Freeze` and `Clip.add(_:)` (inside a section, another freeze there).
    public mutating func freeze(at editTime: MediaTime, for duration: MediaTime, audio: Freeze.Audio = .silence) throws {
        try checkInside(editTime)
        var start = MediaTime.zero
        for index in clips.indices {
            let end = start + clips[index].range.duration
            if editTime < end || index == clips.count - 1 {
                let freeze = try Freeze(at: clips[index].range.start + (editTime - start), duration: duration, audio: audio)
                try clips[index].add([freeze])
                return
            }
            start = end
        }
    }

    /// The length of the edit timeline: the sum of the clips' durations.
    public var editDuration: MediaTime {
        clips.reduce(.zero) { $0 + $1.range.duration }
    }

    /// Appends a clip at the end.
    public mutating func append(_ clip: Clip) {
        clips.append(clip)
    }

    /// Inserts `clip` at `editTime`, splitting the clip playing there in two. Throws
    /// `.pastEnd` when `editTime` is outside `0 … editDuration`.
    public mutating func insert(_ clip: Clip, at editTime: MediaTime) throws {
        clips.insert(clip, at: try split(at: editTime))
    }

    /// Inserts `range` of the file `source` at `editTime`, like AVFoundation's
    /// `insertTimeRange(_:of:at:)`; see `insert(_:at:)`.
    public mutating func insertRange(_ range: TimeRange, of source: String, frameRate: Rational? = nil,
                                     at editTime: MediaTime) throws {
        try insert(Clip(source: source, range: range, frameRate: frameRate), at: editTime)
    }

    /// Removes `range` of the edit timeline, cutting clips and sections at its edges. Throws
    /// `.pastEnd` when the range reaches outside the edit timeline.
    public mutating func removeRange(_ range: TimeRange) throws {
        let first = try split(at: range.start)
        let last = try split(at: range.end)
        clips.removeSubrange(first..<last)
    }

    /// Plays `range` of the edit timeline at `rate`, with ramps in and out (the DESIGN's
    /// `edit.scale(2..<4, rate: 0.25, ramp: 0.3)`). Where the range spans several clips, each
    /// gets a section over its part, the first with the ramp in, the last with the ramp out.
    /// Throws `.pastEnd`, `.overlap` with an existing section, or the errors of `Section`.
    public mutating func scale(_ range: TimeRange, rate: Rate, ramp: MediaTime = .zero,
                               audio: TimePitchAlgorithm? = nil, pitch: Double? = nil, frames: FrameChoice? = nil) throws {
        guard !range.isEmpty else {
            throw TimeModelError(.emptyRange, "cannot scale the empty range \(range)")
        }
        try checkInside(range.start)
        try checkInside(range.end)
        var edited = clips
        var start = MediaTime.zero
        let pieces = clips.indices.compactMap { index -> (Int, TimeRange)? in
            defer { start = start + clips[index].range.duration }
            let editRange = TimeRange(start: start, duration: clips[index].range.duration)
            return editRange.intersection(range).map { (index, $0.shifted(by: clips[index].range.start - start)) }
        }
        for (position, (index, part)) in pieces.enumerated() {
            let section = try Section(range: part, rate: rate,
                                      rampIn: position == 0 ? ramp : .zero,
                                      rampOut: position == pieces.count - 1 ? ramp : .zero,
                                      audio: audio, pitch: pitch, frames: frames)
            try edited[index].add([section])
        }
        clips = edited
    }

    /// `scale(_:rate:ramp:audio:pitch:frames:)` over a Swift range:
    /// `try edit.scale(.seconds(2) ..< .seconds(4), rate: 0.25, ramp: .seconds(0.3))`.
    public mutating func scale(_ range: Range<MediaTime>, rate: Rate, ramp: MediaTime = .zero,
                               audio: TimePitchAlgorithm? = nil, pitch: Double? = nil, frames: FrameChoice? = nil) throws {
        try scale(TimeRange(range), rate: rate, ramp: ramp, audio: audio, pitch: pitch, frames: frames)
    }

    /// Scales `range` of the edit timeline to last `duration` in the output, like
    /// AVFoundation's `scaleTimeRange(_:toDuration:)`: a section at rate
    /// `range.duration / duration`. Throws `.rateOutOfRange` beyond 1/32 … 32, or the errors of
    /// `scale(_:rate:ramp:audio:pitch:frames:)`.
    public mutating func scaleRange(_ range: TimeRange, toDuration duration: MediaTime) throws {
        guard duration > .zero else {
            throw TimeModelError(.emptyRange, "cannot scale \(range) to a duration of \(duration) s")
        }
        guard let rate = range.duration.seconds.dividedReportingOverflow(by: duration.seconds) else {
            throw TimeModelError(.overflow, "the rate of \(range) scaled to \(duration) s does not fit")
        }
        try scale(range, rate: Rate(rate))
    }

    /// The overall time map; throws the errors of `TimeMap` for each clip.
    public func timeMap() throws -> CompositionMap {
        try CompositionMap(self)
    }

    /// Splits the clip playing at `editTime` so that a clip starts there; returns its index
    /// (`clips.count` at the end).
    private mutating func split(at editTime: MediaTime) throws -> Int {
        try checkInside(editTime)
        var start = MediaTime.zero
        for (index, clip) in clips.enumerated() {
            if editTime == start { return index }
            let end = start + clip.range.duration
            if editTime < end {
                let cut = clip.range.start + (editTime - start)
                let left = clip.trimmed(to: TimeRange(start: clip.range.start, end: cut))!
                let right = clip.trimmed(to: TimeRange(start: cut, end: clip.range.end))!
                clips.replaceSubrange(index...index, with: [left, right])
                return index + 1
            }
            start = end
        }
        return clips.count
    }

    private func checkInside(_ editTime: MediaTime) throws {
        guard editTime >= .zero && editTime <= editDuration else {
            throw TimeModelError(.pastEnd, "edit time \(editTime) s is outside the composition, "
                                 + "which lasts \(editDuration) s")
        }
    }
}
