extension Composition {
    /// A composition played backwards (`Composition.reversed`), and which clip of the original
    /// each of its clips comes from.
    public struct Reversal: Hashable, Sendable {
        /// Output time `o` of it shows what output time `duration − o` of the original shows.
        public let composition: Composition
        /// For each of its clips, the index of the original clip it plays a part of.
        public let originalClips: [Int]
    }

    /// This composition played backwards, for a player going backwards: its output timeline
    /// mirrored, every time exact where the original's is. A map can run backwards only one
    /// segment at a time (its segments keep their source order), so every segment of every clip
    /// becomes clips of its own, in reverse order: a forward stretch becomes reversed pieces of
    /// at most `longestPiece` of source (a backwards piece reads its whole sound before it
    /// plays), a reversed section plays forwards, a freeze holds the same picture as long (the
    /// picture's frame, shown backwards, ends it), and a ramp becomes steps on source frames at
    /// the rate that keeps each step's output length (a reversed section cannot ramp), so where
    /// a ramp was, pictures are within a step's curvature of the mirror, under a millisecond.
    public func reversed(longestPiece: MediaTime = MediaTime(value: 10, timescale: 1)) throws -> Reversal {
        let map = try timeMap()
        var clips: [Clip] = [], originals: [Int] = []
        for (index, entry) in map.entries.enumerated().reversed() {
            let clip = entry.clip
            for segment in entry.map.segments.reversed() {
                for piece in try Self.mirrored(segment, of: clip, longestPiece: longestPiece).reversed() {
                    clips.append(piece)
                    originals.append(index)
                }
            }
        }
        return Reversal(composition: Composition(clips), originalClips: originals)
    }

    /// The clips that play `segment` of `clip` backwards, in source order.
    private static func mirrored(_ segment: TimeMap.Segment, of clip: Clip, longestPiece: MediaTime) throws -> [Clip] {
        func piece(_ range: TimeRange, rate: Rate, reversed: Bool, freezes: [Freeze] = []) throws -> Clip {
            let covering = reversed || rate != .normal || segment.pitch != nil
                ? [try Section(range: range, rate: rate, reversed: reversed, audio: segment.audio, pitch: segment.pitch,
                                frames: segment.frames)] : []
            return try Clip(source: clip.source, range: range, sections: covering, freezes: freezes, frameRate: clip.frameRate)
        }
        switch segment.shape {
        case .reversed(let rate):
            return [try piece(segment.source, rate: rate, reversed: false)]
        case .constant(let rate):
            let count = Int((segment.source.duration.seconds / longestPiece.seconds).doubleValue.rounded(.up))
            return try segment.source.frameAligned(parts: max(1, count), frameRate: clip.frameRate).map {
                try piece($0, rate: rate, reversed: true)
            }
        case .ramp, .eased:
            return try segment.source.frameAligned(parts: rampSteps, frameRate: clip.frameRate).map { step in
                let output = segment.outputTime(at: step.end) - segment.outputTime(at: step.start)
                let rate = try Rate(step.duration.seconds.dividedReportingOverflow(by: output.seconds)
                                    ?? Rational(approximating: step.duration.doubleSeconds / output.doubleSeconds))
                return try piece(step, rate: rate, reversed: true)
            }
        case .hold(let audio):
            // The held picture's own frame, backwards, ends the hold: it shows the same picture.
            let frame = MediaTime(seconds: clip.frameRate?.reciprocal ?? Rational(1, 1000))
            let range = TimeRange(start: segment.source.start, end: MediaTime.min(segment.source.start + frame, clip.range.end))
            let hold = segment.output.duration
            if hold > range.duration {
                return [try piece(range, rate: .normal, reversed: true,
                                  freezes: [Freeze(at: range.start, duration: hold - range.duration, audio: audio)])]
            }
            return [try piece(range, rate: try Rate(range.duration.seconds / hold.seconds), reversed: true)]
        }
    }

    /// Steps a ramp is played backwards in.
    static let rampSteps = 16
}

extension TimeRange {
    /// The range cut into `parts` pieces (fewer when it holds fewer frames), their edges on
    /// source frames at `frameRate` (equal parts when it is unknown).
    public func frameAligned(parts: Int, frameRate: Rational?) throws -> [TimeRange] {
        var edges = [start]
        if let frameRate {
            let first = try start.ticks(in: frameRate.reciprocal, rounding: .up)
            let last = try end.ticks(in: frameRate.reciprocal, rounding: .down)
            let step = max(1, (max(0, last - first) + Int64(parts) - 1) / Int64(parts))
            var frame = first + step
            while frame < last {
                edges.append(MediaTime(ticks: frame, timeBase: frameRate.reciprocal))
                frame += step
            }
        } else {
            edges += (1..<parts).map { start + MediaTime(seconds: duration.seconds * Rational(Int64($0), Int64(parts))) }
        }
        edges.append(end)
        return zip(edges, edges.dropFirst()).filter { $0 < $1 }.map { TimeRange(start: $0, end: $1) }
    }
}
