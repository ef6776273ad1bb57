extension TimeMap {
    /// The part of the map from output time `start` to its end, for playback from `start`.
    ///
    /// The result covers source `s0 ..< source.end`, `s0 = sourceTime(at: start)`, and ends at
    /// `output.end`; for every source time `s ≥ s0`, `trimmed.outputTime(at: s) ==
    /// outputTime(at: s)` (exactly where this map is exact). Segments before `s0` are dropped;
    /// the one containing `s0` is cut there, keeping its rate, or its ramp's curve of 1/rate;
    /// from inside a freeze, the rest of the hold comes first; from inside a reversed section,
    /// what is left of it: the source before `s0`, backwards (the result's source then starts
    /// at the section's start, and skips from `s0` to the section's end, already played).
    /// `sections` is unchanged, so segments' section indices stay valid. Returns `self` when
    /// `start ≤ output.start`; throws `.emptyRange` when `start` is at or past `output.end`,
    /// and `.overflow` when the cut segment is not representable exactly.
    public func trimmed(fromOutput start: MediaTime) throws -> TimeMap {
        guard start > output.start else { return self }
        let cut = MediaTime.max(source.start, MediaTime.min(sourceTime(at: start), source.end))
        guard cut < source.end else {
            throw TimeModelError(.emptyRange, "output time \(start) s is at or past the map's end at \(output.end) s")
        }
        var kept: [Segment]
        let atOutput = segmentIndex(containingOutput: start)
        if segments[atOutput].isHold, case .hold(let audio) = segments[atOutput].shape {
            // Inside a freeze: what is left of the hold, then the rest.
            let hold = segments[atOutput]
            kept = [try Segment(holding: hold.source.start, outputStart: start, duration: hold.output.end - start, audio: audio)]
                + segments[(atOutput + 1)...]
        } else if segments[atOutput].isReversed {
            // Inside a reversed section: the source before the cut, backwards, then the rest.
            kept = Array(segments[atOutput...])
            kept[0] = try kept[0].suffix(from: cut)
        } else {
            kept = Array(segments[segmentIndex(containingSource: cut)...])
            kept[0] = try kept[0].suffix(from: cut)
        }
        return try TimeMap(source: TimeRange(start: kept[0].source.start, end: kept.last!.source.end), outputStart: kept[0].output.start,
                           sections: sections, freezes: freezes, segments: kept)
    }

    /// The map played `rate` times faster on top of its own rates: the same source range and
    /// sections, every segment's 1/rate divided by `rate` (a constant rate `r` becomes `r·rate`,
    /// a ramp's both ends likewise), and `outputStart / rate` as the output start. Exactly,
    /// `scaled.outputTime(at: s) == outputTime(at: s) / rate` for every source time `s`, and
    /// `sourceTime` is its inverse; rate 1 gives an equal map. Throws `.rateOutOfRange` when a
    /// segment's rate would leave 1/32 … 32, and `.overflow` when a time is not representable.
    public func scaled(by rate: Rate) throws -> TimeMap {
        let factor = rate.value
        let scaled = try segments.map { try $0.scaled(by: factor) }
        // Each end is exactly start/rate + duration/rate = end/rate, so the segments tile.
        return try TimeMap(source: source, outputStart: try outputStart.divided(by: factor),
                           sections: sections, freezes: freezes, segments: scaled)
    }
}
