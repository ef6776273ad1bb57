import Testing
@testable import SlomoCore

@Suite struct TimeMapPlaybackTests {
    func t(_ value: Int64, _ scale: Int64 = 1) -> MediaTime { MediaTime(value: value, timescale: scale) }
    func spec(_ text: String) throws -> Section {
        try SectionSpec(parsing: text).resolved(in: TimeRange(start: .zero, duration: t(10)), frameRate: Rational(240))
    }

    /// Source → output, 17.5 s in all:
    /// 0-2 → 0-2 at 1 · 2-4 → 2-10 at 0.25 · 4-6 → 10-12 at 1 · 6-6.5 → 12-12.75 ramp 1→0.5 ·
    /// 6.5-7.5 → 12.75-14.75 at 0.5 · 7.5-8 → 14.75-15.5 ramp 0.5→1 · 8-10 → 15.5-17.5 at 1.
    func map() throws -> TimeMap {
        try TimeMap(sections: [spec("2-4x0.25"), spec("6-8x0.5:ramp=0.5")], clipDuration: t(10))
    }

    /// Source times in every segment, on the edges and between them.
    var samples: [MediaTime] {
        [t(0), t(1, 3), t(2), t(5, 2), t(3), t(4), t(5), t(6), t(25, 4), t(6) + t(1, 240), t(13, 2), t(7), t(15, 2),
         t(31, 4), t(8), t(9), t(10)]
    }

    @Test func theMapUnderTest() throws {
        let map = try map()
        #expect(map.outputDuration == t(35, 2))
        #expect(map.segments.map(\.shape) == [.constant(1), .constant(0.25), .constant(1), .ramp(from: 1, to: 0.5),
                                              .constant(0.5), .ramp(from: 0.5, to: 1), .constant(1)])
        #expect(map.segments.map(\.section) == [nil, 0, nil, 1, 1, 1, nil])
    }

    // MARK: trimmed(fromOutput:)

    /// What every trim keeps: the end, the sections, and the output time of each source time after the cut.
    func expectTrim(_ trimmed: TimeMap, of map: TimeMap, at start: MediaTime) {
        let cut = trimmed.source.start
        #expect(cut == MediaTime.max(map.source.start, map.sourceTime(at: start)))
        #expect(trimmed.source.end == map.source.end)
        #expect(trimmed.output.end == map.output.end)
        #expect(trimmed.outputStart == map.outputTime(at: cut))
        #expect(trimmed.output.start == trimmed.outputStart)
        #expect(trimmed.sections == map.sections)
        #expect(trimmed.segments.first?.source.start == cut)
        #expect(trimmed.segments.first?.output.start == trimmed.outputStart)
        #expect(trimmed.segments.last == map.segments.last)
        for s in samples + [cut] where s >= cut {
            #expect(trimmed.outputTime(at: s) == map.outputTime(at: s), "at \(s)")
        }
    }

    @Test func trimInsideAConstantSegment() throws {
        let map = try map()
        let trimmed = try map.trimmed(fromOutput: t(6))
        #expect(trimmed.source == TimeRange(start: t(3), end: t(10)))
        #expect(trimmed.output == TimeRange(start: t(6), end: t(35, 2)))
        #expect(trimmed.segments.count == 6)
        let first = trimmed.segments[0]
        #expect(first.source == TimeRange(start: t(3), end: t(4)))
        #expect(first.output == TimeRange(start: t(6), end: t(10)))
        #expect(first.shape == .constant(0.25))
        #expect(first.section == 0)
        #expect(Array(trimmed.segments.dropFirst()) == Array(map.segments[2...]))
        expectTrim(trimmed, of: map, at: t(6))
        // The inverse agrees too, exactly, on constant parts.
        for o in [t(6), t(7), t(10), t(11), t(13), t(17)] {
            #expect(trimmed.sourceTime(at: o) == map.sourceTime(at: o))
        }
    }

    @Test func trimInsideARampKeepsItsShape() throws {
        let map = try map()
        // 6.25 s is a quarter into the 1→2 line of 1/rate (0.5 s long): 1/rate is 1.5 there, and
        // it plays at 12 + 0.25 + 0.25² = 12.3125 s.
        let start = t(197, 16)
        #expect(map.outputTime(at: t(25, 4)) == start)
        let trimmed = try map.trimmed(fromOutput: start)
        #expect(trimmed.source == TimeRange(start: t(25, 4), end: t(10)))
        #expect(trimmed.segments.count == 4)
        let first = trimmed.segments[0]
        #expect(first.source == TimeRange(start: t(25, 4), end: t(13, 2)))
        #expect(first.output == TimeRange(start: start, end: t(51, 4)))
        #expect(first.shape == .ramp(from: try Rate(Rational(2, 3)), to: 0.5))
        #expect(first.section == 1)
        #expect(Array(trimmed.segments.dropFirst()) == Array(map.segments[4...]))
        expectTrim(trimmed, of: map, at: start)
    }

    @Test func trimAtAnInexactRampTimeStaysExactAfterTheCut() throws {
        let map = try map()
        // Half a second into the ramp's output: the source time is irrational, rounded to the ns.
        let start = t(25, 2)
        let trimmed = try map.trimmed(fromOutput: start)
        let cut = trimmed.source.start
        #expect(cut == map.sourceTime(at: start))
        #expect(t(6) < cut && cut < t(13, 2))
        let microsecond = t(1, 1_000_000)
        #expect(trimmed.outputStart - start < microsecond && start - trimmed.outputStart < microsecond)
        #expect(trimmed.segments.count == 4)
        guard case .ramp(let from, let to) = trimmed.segments[0].shape else {
            Issue.record("the cut ramp is no longer a ramp")
            return
        }
        #expect(to == 0.5)
        // k at the cut is 1 + (2 − 1)·(cut − 6)/0.5, exactly.
        #expect(from.stretch == Rational(1) + (cut.seconds - Rational(6)) / Rational(1, 2))
        expectTrim(trimmed, of: map, at: start)
        for s in [cut + t(1, 1000), t(32, 5), t(649, 100)] {
            #expect(trimmed.outputTime(at: s) == map.outputTime(at: s), "at \(s)")
        }
    }

    @Test func trimOnSegmentBoundaries() throws {
        let map = try map()
        for index in 1 ..< map.segments.count {
            let boundary = map.segments[index]
            let trimmed = try map.trimmed(fromOutput: boundary.output.start)
            #expect(trimmed.source.start == boundary.source.start)
            #expect(trimmed.segments == Array(map.segments[index...]))
            expectTrim(trimmed, of: map, at: boundary.output.start)
        }
    }

    @Test func trimAtOrBeforeTheStartIsTheMap() throws {
        let map = try map()
        #expect(try map.trimmed(fromOutput: .zero) == map)
        #expect(try map.trimmed(fromOutput: t(-3)) == map)
        let clip = try TimeMap(sections: [spec("2-4x0.25")], source: TimeRange(start: t(1), end: t(9)),
                               outputStart: t(5))
        #expect(try clip.trimmed(fromOutput: t(5)) == clip)
        let trimmed = try clip.trimmed(fromOutput: t(7))    // 1 s after the clip's start at rate 1, then 1 s at 0.25
        #expect(trimmed.source.start == t(9, 4))
        expectTrim(trimmed, of: clip, at: t(7))
    }

    @Test func trimAtOrPastTheEndThrows() throws {
        let map = try map()
        for start in [map.output.end, map.output.end + t(1)] {
            #expect {
                _ = try map.trimmed(fromOutput: start)
            } throws: { error in
                (error as? TimeModelError)?.kind == .emptyRange
            }
        }
        let last = try map.trimmed(fromOutput: map.output.end - t(1, 1000))
        #expect(last.source == TimeRange(start: t(9999, 1000), end: t(10)))
        #expect(last.segments.count == 1)
    }

    // MARK: scaled(by:)

    static let rates: [Rate] = [2, 0.25, try! Rate(Rational(3, 7))]

    @Test(arguments: rates) func scaledDividesOutputTimes(rate: Rate) throws {
        let map = try map()
        let scaled = try map.scaled(by: rate)
        #expect(scaled.source == map.source)
        #expect(scaled.sections == map.sections)
        #expect(scaled.outputStart == (try map.outputStart.divided(by: rate.value)))
        #expect(scaled.output.end == (try map.output.end.divided(by: rate.value)))
        #expect(scaled.segments.count == map.segments.count)
        for (original, faster) in zip(map.segments, scaled.segments) {
            #expect(faster.source == original.source)
            #expect(faster.output.start == (try original.output.start.divided(by: rate.value)))
            #expect(faster.output.end == (try original.output.end.divided(by: rate.value)))
            #expect(faster.section == original.section)
            #expect(faster.audio == original.audio && faster.frames == original.frames)
            switch original.shape {
            case .constant(let r):
                #expect(faster.shape == .constant(try Rate(r.value * rate.value)))
            case .ramp(let from, let to):
                #expect(faster.shape == .ramp(from: try Rate(from.value * rate.value), to: try Rate(to.value * rate.value)))
            case .eased(let from, let to, let ease):
                #expect(faster.shape == .eased(from: try Rate(from.value * rate.value), to: try Rate(to.value * rate.value), ease: ease))
            case .reversed(let r):
                #expect(faster.shape == .reversed(try Rate(r.value * rate.value)))
            case .hold:
                #expect(faster.shape == original.shape)
            }
        }
        // Exact everywhere, outside the source range too.
        for s in samples + [t(-1), t(12), t(1, 90000)] {
            #expect(scaled.outputTime(at: s) == (try map.outputTime(at: s).divided(by: rate.value)), "at \(s)")
        }
        // The inverse is exact on constant parts.
        for s in samples + [t(-1), t(12)] where map.segments[map.segmentIndex(containingSource: s)].shape.isConstant
                                                || !map.source.contains(s) {
            #expect(scaled.sourceTime(at: scaled.outputTime(at: s)) == s, "at \(s)")
        }
    }

    @Test func scaledWithAnOutputStart() throws {
        let clip = try TimeMap(sections: [spec("2-4x0.25")], source: TimeRange(start: t(1), end: t(9)),
                               outputStart: t(5))
        let scaled = try clip.scaled(by: try Rate(Rational(3, 7)))
        #expect(scaled.output == TimeRange(start: t(35, 3), end: t(35, 3) + t(14 * 7, 3)))
        #expect(scaled.outputTime(at: t(3)) == t(70, 3))
    }

    @Test func scaledByOneIsTheMap() throws {
        let map = try map()
        #expect(try map.scaled(by: 1) == map)
    }

    @Test func scaledPastTheFastestRateThrows() throws {
        let map = try TimeMap(sections: [spec("2-4x16")], clipDuration: t(10))
        #expect(try map.scaled(by: 2).segments[1].shape == .constant(32))
        #expect {
            _ = try map.scaled(by: 4)
        } throws: { error in
            (error as? TimeModelError)?.kind == .rateOutOfRange
        }
    }

    @Test func trimmingThenScalingComposes() throws {
        let map = try map()
        for (start, rate) in [(t(6), Rate(2)), (t(197, 16), Rate(2)), (t(12), Rate(0.25)), (t(6), try Rate(Rational(3, 7)))] {
            let trimmedFirst = try map.trimmed(fromOutput: start).scaled(by: rate)
            let scaledFirst = try map.scaled(by: rate).trimmed(fromOutput: start.divided(by: rate.value))
            #expect(trimmedFirst == scaledFirst, "at \(start), \(rate)x")
            #expect(trimmedFirst.outputStart == (try start.divided(by: rate.value)))
            #expect(trimmedFirst.output.end == (try map.output.end.divided(by: rate.value)))
            for s in samples where s >= trimmedFirst.source.start {
                #expect(trimmedFirst.outputTime(at: s) == (try map.outputTime(at: s).divided(by: rate.value)))
            }
        }
    }
}

extension TimeMap.Shape {
    fileprivate var isConstant: Bool {
        if case .constant = self { return true }
        return false
    }
}
