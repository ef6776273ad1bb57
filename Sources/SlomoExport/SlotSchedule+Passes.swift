import SlomoCore

extension SlotSchedule {
    /// A run of a clip's slots whose pictures are read in one direction: forwards on this
    /// schedule's map, or a reversed section's backwards (`reversed`, its source range) on a
    /// schedule of the mirrored map, where the section plays forwards (`ReversedSectionDecoder`).
    struct Pass {
        let schedule: SlotSchedule
        let reversed: TimeRange?
    }

    /// The slots cut where the map turns: the forward runs between reversed sections (this
    /// schedule, restricted to their slots) and each reversed section's slots.
    func passes(sourceFrameRate: Rational?, defaultChoice: FrameChoice) throws -> [Pass] {
        guard map.segments.contains(where: \.isReversed) else { return [Pass(schedule: self, reversed: nil)] }
        let period = frameRate.reciprocal
        func slot(_ time: MediaTime) throws -> Int {
            min(slots.upperBound, max(slots.lowerBound, Int(try time.ticks(in: period, rounding: .up))))
        }
        var passes: [Pass] = []
        var forward = slots.lowerBound
        func addForward(until end: Int) {
            guard forward < end else { return }
            var run = self
            run.restrict(to: forward ..< end)
            passes.append(Pass(schedule: run, reversed: nil))
        }
        for segment in map.segments {
            guard case .reversed(let rate) = segment.shape else { continue }
            let first = try slot(segment.output.start), end = try slot(segment.output.end)
            addForward(until: first)
            if first < end {
                // The mirrored map goes a frame past the section, so that its last slots blend or
                // interpolate towards the picture before the section's start, as forward ones
                // do towards the picture after a section's end.
                let frame = MediaTime(seconds: sourceFrameRate?.reciprocal ?? Rational(1, 10))
                let mirrored = try TimeMap(sections: [try Section(range: segment.source, rate: rate, frames: segment.frames)],
                                           source: TimeRange(start: segment.source.start, end: try segment.source.end.adding(frame)),
                                           outputStart: segment.output.start)
                var run = try SlotSchedule(map: mirrored, frameRate: frameRate, sourceFrameRate: sourceFrameRate, frameTimes: nil,
                                           defaultChoice: defaultChoice)
                run.restrict(to: first ..< end)
                run.exposure = exposure
                passes.append(Pass(schedule: run, reversed: segment.source))
            }
            forward = max(forward, end)
        }
        addForward(until: slots.upperBound)
        return passes
    }
}
