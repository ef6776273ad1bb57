import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import SlomoCore

@Suite struct TimeMapTests {
    func t(_ value: Int64, _ scale: Int64 = 1) -> MediaTime { MediaTime(value: value, timescale: scale) }
    func spec(_ text: String) throws -> Section {
        try SectionSpec(parsing: text).resolved(in: TimeRange(start: .zero, duration: t(10)), frameRate: Rational(240))
    }

    @Test func constantSection() throws {
        let map = try TimeMap(sections: [spec("2-4x0.25")], clipDuration: t(10))
        #expect(map.outputDuration == t(16))
        #expect(map.segments.map(\.source) == [TimeRange(start: t(0), end: t(2)), TimeRange(start: t(2), end: t(4)),
                                                TimeRange(start: t(4), end: t(10))])
        #expect(map.segments.map(\.output) == [TimeRange(start: t(0), end: t(2)), TimeRange(start: t(2), end: t(10)),
                                                TimeRange(start: t(10), end: t(16))])
        #expect(map.segments.map(\.shape) == [.constant(1), .constant(0.25), .constant(1)])
        #expect(map.segments.map(\.section) == [nil, 0, nil])
        #expect(map.segments[1].effectiveFrameRate(sourceFrameRate: Rational(240)) == Rational(60))
        #expect(map.outputTime(at: t(3)) == t(6))
        #expect(map.sourceTime(at: t(6)) == t(3))
        #expect(map.outputTime(at: t(1, 240)) == t(1, 240))
        #expect(map.outputTime(at: t(2) + t(1, 240)) == t(2) + t(4, 240))
        #expect(map.sourceTime(at: t(16)) == t(10))
    }

    @Test func extrapolatesOutsideTheClip() throws {
        let map = try TimeMap(sections: [spec("0-2x0.5"), spec("8-endx2")], clipDuration: t(10))
        #expect(map.outputTime(at: t(-1)) == t(-2))
        #expect(map.sourceTime(at: t(-2)) == t(-1))
        #expect(map.outputDuration == t(4 + 6 + 1))
        #expect(map.outputTime(at: t(12)) == t(12))
        #expect(map.sourceTime(at: t(12)) == t(12))
    }

    @Test func rampIntegratesOneOverRateExactly() throws {
        // 1/rate goes 1 → 4 over 0.5 s: the ramp lasts 0.5·(1 + 4)/2 = 1.25 s.
        let map = try TimeMap(sections: [spec("2-4x0.25:ramp=0.5")], clipDuration: t(10))
        #expect(map.segments.map(\.shape) == [.constant(1), .ramp(from: 1, to: 0.25), .constant(0.25),
                                              .ramp(from: 0.25, to: 1), .constant(1)])
        #expect(map.segments[1].output.duration == t(5, 4))
        #expect(map.segments[2].output.duration == t(4))
        #expect(map.outputDuration == t(29, 2))
        // Halfway into the ramp: x = 0.25, 1·x + 3·x²/(2·0.5) = 0.25 + 0.1875.
        #expect(map.outputTime(at: t(9, 4)) == t(2) + t(7, 16))
        #expect(map.sourceTime(at: t(2) + t(7, 16)) == t(9, 4))
        #expect(map.segments[1].effectiveFrameRate(sourceFrameRate: Rational(240)) == Rational(96))
    }

    @Test func touchingSectionsShareOneRamp() throws {
        // 1/rate 2 → 0.5 over 0.5 + 0.5 s: at the boundary it is 1.25 (rate 0.8).
        let map = try TimeMap(sections: [spec("2-4x0.5:ramp-out=0.5"), spec("4-6x2:ramp-in=0.5")], clipDuration: t(10))
        #expect(map.segments.map(\.shape) == [.constant(1), .constant(0.5), .ramp(from: 0.5, to: 0.8),
                                              .ramp(from: 0.8, to: 2), .constant(2), .constant(1)])
        #expect(map.segments.map(\.section) == [nil, 0, 0, 1, 1, nil])
    }

    @Test func sectionPastTheEndNamesTheClipDuration() throws {
        #expect {
            _ = try TimeMap(sections: [spec("8-12x2")], clipDuration: t(10))
        } throws: { error in
            let error = error as! TimeModelError
            return error.kind == .pastEnd && error.description
                == "section '8-12x2': ends at 12 s, past the clip's end at 10 s (the clip lasts 10 s)"
        }
    }

    @Test func overlappingSections() throws {
        #expect {
            _ = try TimeMap(sections: [spec("2-4x0.5"), spec("3-5x2")], clipDuration: t(10))
        } throws: { error in
            let error = error as! TimeModelError
            return error.kind == .overlap && error.description == "section '3-5x2': overlaps section '2-4x0.5'"
        }
    }

    @Test func emptyClip() {
        #expect(throws: TimeModelError.self) { try TimeMap(sections: [], clipDuration: .zero) }
    }

    @Test func snapsEdgesToTheFirstFrameAtOrAfterThem() throws {
        let section = try Section(range: TimeRange(start: t(2001, 1000), end: t(4)), rate: 0.5)
        let snapped = try section.snapped(frameRate: Rational(240), clipEnd: t(10))
        #expect(snapped.range.start == t(481, 240))
        #expect(snapped.range.end == t(4))
        let ntsc = try Section(range: TimeRange(start: t(1), end: t(2)), rate: 0.5)
            .snapped(frameRate: Rational(30000, 1001), clipEnd: t(10))
        #expect(ntsc.range.start == t(30 * 1001, 30000))   // frame 30 at 1.001 s
        let offset = try section.snapped(frameRate: Rational(240), origin: t(1, 480), clipEnd: t(10))
        #expect(offset.range.start == t(1, 480) + t(480, 240))
        let tail = try Section(range: TimeRange(start: t(9), end: t(9999, 1000)), rate: 2)
            .snapped(frameRate: Rational(1), clipEnd: t(9999, 1000))
        #expect(tail.range.end == t(9999, 1000))
        #expect(throws: TimeModelError.self) {
            try Section(range: TimeRange(start: t(1001, 1000), end: t(1002, 1000)), rate: 2)
                .snapped(frameRate: Rational(240), clipEnd: t(10))
        }
    }
}
