import Foundation
import Testing
@testable import SlomoCore

/// Reversed sections in the time model: a segment whose output runs from its source end to its
/// start, entered and left by cuts; the syntax, the plan and the mistakes people make with it.
@Suite struct ReverseTests {
    static func t(_ n: Int64, _ d: Int64 = 1) -> MediaTime { MediaTime(seconds: Rational(n, d)) }

    /// A 10 s clip at 240 fps with 4–6 s played backwards at half speed.
    static func map() throws -> TimeMap {
        try TimeMap(sections: [SectionSpec(parsing: "4-6x-0.5").resolved(in: TimeRange(start: .zero, end: t(10)), frameRate: Rational(240))],
                    source: TimeRange(start: .zero, end: t(10)), frameRate: Rational(240))
    }

    @Test func syntaxReadsAndWritesANegativeRate() throws {
        let spec = try SectionSpec(parsing: "4-6x-0.5:audio=varispeed")
        #expect(spec.reversed && spec.rate == 0.5 && spec.audio == .varispeed)
        #expect(spec.description == "4-6x-0.5:audio=varispeed")
        #expect(try SectionSpec(parsing: "4-6x-1/2").description == "4-6x-0.5")
        #expect(try SectionSpec(parsing: "4-6x1").reversed == false)
        let section = try Section(reversing: Self.t(4)..<Self.t(6), rate: 0.5)
        #expect(section.description == "4-6x-0.5")
        #expect(section != (try Section(Self.t(4)..<Self.t(6), rate: 0.5)), "direction takes part in equality")
    }

    @Test func theSegmentRunsBackwardsBetweenCuts() throws {
        let map = try Self.map()
        #expect(map.segments.map(\.shape.description) == ["1", "-0.5", "1"])
        let reversed = map.segments[1]
        #expect(reversed.isReversed)
        #expect(reversed.source == TimeRange(start: Self.t(4), end: Self.t(6)))
        #expect(reversed.output == TimeRange(start: Self.t(4), end: Self.t(8)))
        #expect(map.outputDuration == Self.t(12))
        // Output → source: the section's end first, then backwards at half speed; a cut at each edge.
        #expect(map.sourceTime(at: Self.t(4) - Self.t(1, 1000)) == Self.t(4) - Self.t(1, 1000))
        #expect(map.sourceTime(at: Self.t(4)) == Self.t(6))
        #expect(map.sourceTime(at: Self.t(5)) == Self.t(11, 2))
        #expect(map.sourceTime(at: Self.t(8) - Self.t(1, 1000)) == Self.t(4) + Self.t(1, 2000))
        #expect(map.sourceTime(at: Self.t(8)) == Self.t(6))
        // Source → output is still a function: each source time plays once.
        #expect(map.outputTime(at: Self.t(5)) == Self.t(6))
        #expect(map.outputTime(at: Self.t(4)) == Self.t(8))
        #expect(map.outputTime(at: Self.t(6)) == Self.t(8))
        #expect(map.outputTime(at: Self.t(9)) == Self.t(11))
        // Exact inverse everywhere in the reversed segment (its start plays at its output's end, the next segment's start).
        for n in 1..<480 {
            let s = Self.t(4) + Self.t(Int64(n), 240)
            #expect(map.sourceTime(at: map.outputTime(at: s)) == s, "at \(s)")
        }
        #expect(reversed.stretch(at: Self.t(5)) == 2, "1/speed, positive")
    }

    @Test func playbackFromInsideAReversedSectionPlaysWhatIsLeftOfIt() throws {
        let map = try Self.map()
        let trimmed = try map.trimmed(fromOutput: Self.t(5))
        #expect(trimmed.segments.map(\.shape.description) == ["-0.5", "1"])
        #expect(trimmed.segments[0].source == TimeRange(start: Self.t(4), end: Self.t(11, 2)))
        #expect(trimmed.output == TimeRange(start: Self.t(5), end: Self.t(12)))
        for n in 0..<360 {
            let s = Self.t(4) + Self.t(Int64(n), 240)
            #expect(trimmed.outputTime(at: s) == map.outputTime(at: s), "at \(s)")
        }
        // From inside a reversed section that ends its clip: what is left of it alone.
        let last = try TimeMap(sections: [Section(reversing: Self.t(8)..<Self.t(10))], source: TimeRange(start: .zero, end: Self.t(10)))
        let rest = try last.trimmed(fromOutput: Self.t(9))
        #expect(rest.source == TimeRange(start: Self.t(8), end: Self.t(9)) && rest.output == TimeRange(start: Self.t(9), end: Self.t(10)))
        let faster = try map.scaled(by: 2)
        #expect(faster.segments[1].shape == .reversed(1))
        #expect(faster.outputTime(at: Self.t(5)) == Self.t(3))
    }

    @Test func aBoomerangIsTwoClipsOverTheSameRange() throws {
        let forward = try Clip(source: "a.mov", range: TimeRange(start: Self.t(2), end: Self.t(3)), sections: [])
        let back = try Clip(source: "a.mov", range: TimeRange(start: Self.t(2), end: Self.t(3)),
                            sections: [Section(reversing: Self.t(2)..<Self.t(3))])
        let map = try Composition([forward, back]).timeMap()
        #expect(map.outputDuration == Self.t(2))
        #expect(map.source(atOutput: Self.t(1, 2)) == (0, Self.t(5, 2)))
        #expect(map.source(atOutput: Self.t(3, 2)) == (1, Self.t(5, 2)))
        #expect(map.source(atOutput: Self.t(7, 4)) == (1, Self.t(9, 4)))
    }

    @Test func planDescribesTheReversedSegment() throws {
        let plan = try Plan(try Self.map(), source: "a.mov", sourceFrameRate: Rational(240), cfrFrameRate: Rational(30))
        let segment = plan.segments[1]
        #expect(segment.reversed == true && segment.rate == -0.5 && segment.rateText == "-0.5")
        #expect(segment.sourceFrames == 480 && segment.outputFrames == 120)
        #expect(plan.segments[0].reversed == nil)
        #expect(try plan.jsonText().contains("\"reversed\" : true"))
    }

    @Test(arguments: [
        ("4-6x-1:ramp=0.2", "section '4-6x-1:ramp=0.2': a reversed section cannot ramp (its rate would pass through 0): "
            + "remove :ramp and :ease; the cut to it is instant"),
        ("4-6x-1:ramp-out=0.2:ease=smooth", "section '4-6x-1:ramp-out=0.2:ease=smooth': a reversed section cannot ramp (its rate "
            + "would pass through 0): remove :ramp and :ease; the cut to it is instant"),
    ])
    func reversedSectionsDoNotRamp(text: String, message: String) throws {
        do {
            _ = try SectionSpec(parsing: text)
            Issue.record("\(text) was accepted")
        } catch let error as TimeModelError {
            #expect(error.kind == .invalidValue && error.description == message)
        }
    }

    @Test func aNeighboursRampMayNotLeadIntoAReversedSection() throws {
        let clip = TimeRange(start: .zero, end: Self.t(10))
        let sections = try ["2-4x0.5:ramp=0.3", "4-6x-1"].map { try SectionSpec(parsing: $0).resolved(in: clip, frameRate: nil) }
        do {
            _ = try TimeMap(sections: sections, source: clip)
            Issue.record("a ramp into a reversed section was accepted")
        } catch let error as TimeModelError {
            print("ramp into a reversed section: \(error)")
            #expect(error.kind == .invalidValue)
            #expect(error.description == "section '4-6x-1': touches section '2-4x0.5:ramp=0.3', whose ramp would lead through "
                    + "rate 0 into it; remove that ramp or leave a gap between them")
        }
        // With a gap, the ramp eases to rate 1 before the cut.
        let apart = try ["2-3.5x0.5:ramp=0.3", "4-6x-1"].map { try SectionSpec(parsing: $0).resolved(in: clip, frameRate: nil) }
        #expect(try TimeMap(sections: apart, source: clip).segments.map(\.shape.description) == ["1", "1→0.5", "0.5", "0.5→1", "1", "-1", "1"])
    }

    /// Random maps with reversed sections among ordinary ones: every segment tiles source and
    /// output in order, and output → source → output is the identity inside every segment.
    @Test func randomMapsWithReversedSectionsStayExact() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            var sections: [Section] = []
            var cursor: Int64 = Int64.random(in: 0..<100, using: &generator)
            while cursor < 900 {
                let length = Int64.random(in: 10..<200, using: &generator)
                guard cursor + length <= 1000 else { break }
                let rate = try Rate(Rational(Int64.random(in: 1...64, using: &generator), 16))
                let range = TimeRange(start: Self.t(cursor, 100), end: Self.t(cursor + length, 100))
                sections.append(try Section(range: range, rate: rate, reversed: Bool.random(using: &generator)))
                cursor += length + Int64.random(in: 0..<50, using: &generator)
            }
            let map = try TimeMap(sections: sections, source: TimeRange(start: .zero, end: Self.t(10)))
            for (left, right) in zip(map.segments, map.segments.dropFirst()) {
                #expect(left.source.end == right.source.start && left.output.end == right.output.start)
            }
            for segment in map.segments {
                for k in 0..<4 {
                    let s = segment.source.start + MediaTime(seconds: segment.source.duration.seconds * Rational(Int64(k), 4))
                    let o = segment.outputTime(at: s)
                    #expect(segment.sourceTime(at: o) == s)
                    #expect(segment.output.contains(o) || (segment.isReversed && o == segment.output.end && k == 0))
                }
            }
        }
    }

    /// A composition played backwards: its duration exactly the original's; at every output
    /// time it shows the source time the original shows at the mirrored time: exactly outside
    /// ramps, within a millisecond inside them (steps), the hold held as long.
    @Test func aCompositionPlayedBackwardsMirrorsItsTimeline() throws {
        let clip = TimeRange(start: .zero, end: Self.t(10))
        let sections = try ["1-2x0.5:ramp=0.2:ease=smooth", "4-6x-1", "8-9x2"].map {
            try SectionSpec(parsing: $0).resolved(in: clip, frameRate: Rational(240))
        }
        let first = try Clip(source: "a.mov", range: clip, sections: sections, freezes: [Freeze(at: Self.t(7), duration: Self.t(1, 2))],
                             frameRate: Rational(240))
        let second = try Clip(source: "b.mov", range: TimeRange(start: Self.t(2), end: Self.t(3)), frameRate: Rational(30))
        let original = Composition([first, second])
        let reversal = try original.reversed(longestPiece: Self.t(3))
        let forward = try original.timeMap(), backward = try reversal.composition.timeMap()
        #expect(backward.outputDuration == forward.outputDuration)
        print("reversed: \(reversal.composition.clips.count) clips for \(forward.entries.map(\.map.segments.count)) segments")
        var worstInRamps = 0.0, exact = 0
        let duration = forward.outputDuration
        for n in 1..<1000 {
            let o = MediaTime(seconds: duration.seconds * Rational(Int64(n), 1000))
            let (clipIndex, source) = forward.source(atOutput: o)
            let (mirroredClip, mirrored) = backward.source(atOutput: duration - o)
            #expect(reversal.originalClips[mirroredClip] == clipIndex, "at \(o)")
            let segment = forward.entries[clipIndex].map.segments[forward.entries[clipIndex].map.segmentIndex(containingOutput: o)]
            switch segment.shape {
            case .ramp, .eased: worstInRamps = max(worstInRamps, abs((mirrored - source).doubleSeconds))
            default:
                #expect(mirrored == source, "at output \(o) (\(segment.shape))")
                exact += 1
            }
        }
        print("backwards: \(exact) times exact, worst in ramps \(String(format: "%.3f", worstInRamps * 1000)) ms")
        #expect(worstInRamps < 0.001)
    }
}
