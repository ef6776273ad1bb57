import Foundation
import Testing
@testable import SlomoCore

/// Freeze frames in the time model: the hold segment, the map around it, the syntax and the
/// mistakes people make with it.
@Suite struct FreezeTests {
    static func t(_ n: Int64, _ d: Int64 = 1) -> MediaTime { MediaTime(seconds: Rational(n, d)) }

    /// A 10 s clip at 240 fps, 2–4 s at 0.25, the frame at 5 s held for 2 s.
    static func map() throws -> TimeMap {
        try TimeMap(sections: [Section(t(2)..<t(4), rate: 0.25)], freezes: [Freeze(at: t(5), duration: t(2))],
                    source: TimeRange(start: .zero, end: t(10)), frameRate: Rational(240))
    }

    @Test func theHoldIsASegmentOfOutputWithoutSource() throws {
        let map = try Self.map()
        #expect(map.segments.map(\.shape.description) == ["1", "0.25", "1", "hold", "1"])
        let hold = map.segments[3]
        #expect(hold.source == TimeRange(start: Self.t(5), end: Self.t(5)))
        #expect(hold.output == TimeRange(start: Self.t(11), end: Self.t(13)))
        #expect(map.outputDuration == Self.t(18))
        // Output → source stays a function: every moment of the hold shows 5 s.
        for output in [Self.t(11), Self.t(12), Self.t(25, 2), Self.t(13) - Self.t(1, 1_000_000)] {
            #expect(map.sourceTime(at: output) == Self.t(5))
        }
        // Source → output: 5 s plays from the hold's start over its length; after it, 2 s later.
        #expect(map.outputTime(at: Self.t(5)) == Self.t(11))
        #expect(map.outputRange(at: Self.t(5)) == TimeRange(start: Self.t(11), end: Self.t(13)))
        #expect(map.outputRange(at: Self.t(6)) == TimeRange(start: Self.t(14), end: Self.t(14)))
        #expect(map.outputTime(at: Self.t(5) + Self.t(1, 240)) == Self.t(13) + Self.t(1, 240))
        #expect(map.outputTime(at: Self.t(5) - Self.t(1, 240)) == Self.t(11) - Self.t(1, 240))
        #expect(map.sourceTime(at: Self.t(14)) == Self.t(6))
    }

    /// The frame shown at 5.001 s is the one that appeared at 5 s: the hold starts there.
    @Test func aFreezeHoldsTheFrameShownAtItsTime() throws {
        let map = try TimeMap(sections: [], freezes: [Freeze(at: Self.t(5001, 1000), duration: Self.t(1))],
                              source: TimeRange(start: .zero, end: Self.t(10)), frameRate: Rational(240))
        #expect(map.freezes.map(\.at) == [Self.t(1200, 240)])
        #expect(map.segments[1].output == TimeRange(start: Self.t(5), end: Self.t(6)))
    }

    /// A freeze at the edge of two sections that share an eased ramp: the ramp goes on after it.
    @Test func anEasedRampGoesOnAfterAHold() throws {
        let left = try Section(range: TimeRange(start: Self.t(1), end: Self.t(2)), rate: 0.25, rampOut: Self.t(1, 2), ease: .smooth)
        let right = try Section(range: TimeRange(start: Self.t(2), end: Self.t(3)), rate: 2, rampIn: Self.t(1, 2))
        let plain = try TimeMap(sections: [left, right], clipDuration: Self.t(4))
        let held = try TimeMap(sections: [left, right], freezes: [Freeze(at: Self.t(2), duration: Self.t(3, 2))],
                               source: TimeRange(start: .zero, end: Self.t(4)))
        for n in 0...400 {
            let s = Self.t(Int64(n), 100)
            let shift = s > Self.t(2) ? Self.t(3, 2) : .zero
            #expect(held.outputTime(at: s) == plain.outputTime(at: s) + shift, "at \(s)")
        }
    }

    @Test func playbackFromInsideAHoldKeepsTheRestOfIt() throws {
        let map = try Self.map()
        let trimmed = try map.trimmed(fromOutput: Self.t(12))
        #expect(trimmed.segments.first?.shape == .hold(audio: .silence))
        #expect(trimmed.segments.first?.output == TimeRange(start: Self.t(12), end: Self.t(13)))
        #expect(trimmed.outputTime(at: Self.t(7)) == map.outputTime(at: Self.t(7)))
        let faster = try map.scaled(by: 2)
        #expect(faster.segments[3].output == TimeRange(start: Self.t(11, 2), end: Self.t(13, 2)))
        #expect(faster.outputDuration == Self.t(9))
    }

    @Test(arguments: [("3:2", "3", "2", Freeze.Audio.silence), ("00:00:03.000:2", "3", "2", .silence),
                      ("3.5:0.25:audio=freeze", "3.5", "0.25", .freeze), (" f720:1 ", "3", "1", .silence)])
    func syntax(text: String, at: String, duration: String, audio: Freeze.Audio) throws {
        let freeze = try Freeze(parsing: text, frameRate: Rational(240))
        #expect(freeze.at == (try MediaTime(parsing: at)))
        #expect(freeze.duration == (try MediaTime(parsing: duration)))
        #expect(freeze.audio == audio)
        #expect(try Freeze(parsing: freeze.description, frameRate: nil) == freeze)
    }

    @Test(arguments: [
        ("3", "expected T:D"),
        ("3:-1", "freeze '3:-1'"),
        ("3:0", "must last longer than 0 s"),
        ("3:2:audio=loud", "expected :audio=silence or :audio=freeze"),
        ("end:2", "before the end"),
    ])
    func badSyntaxIsNamed(text: String, message: String) {
        #expect {
            _ = try Freeze(parsing: text)
        } throws: { error in
            let error = error as? TimeModelError
            return error?.section == .freezeSyntax(text) && error?.description.contains(message) == true
        }
    }

    @Test(arguments: [
        (["3:2"], ["2-4x0.5"], "falls inside section '2-4x0.5' (2–4 s); a freeze goes between sections or at their edges"),
        (["12:2"], [], "holds the frame at 12 s, outside the clip's 0–10 s"),
        (["10:2"], [], "holds the frame at 10 s, outside the clip's 0–10 s"),
        (["3:2", "3:1"], [], "holds the same frame as freeze '3:2'"),
    ])
    func misplacedFreezesAreNamed(freezes: [String], sections: [String], message: String) {
        #expect {
            _ = try Composition(source: "clip.mov", duration: Self.t(10), frameRate: nil, sections: sections, freezes: freezes)
        } throws: { error in
            (error as? TimeModelError)?.description.contains(message) == true
        }
    }

    @Test func aSectionAtTheEdgeOfAFreezeIsFine() throws {
        let composition = try Composition(source: "clip.mov", duration: Self.t(10), frameRate: nil,
                                          sections: ["2-4x0.5"], freezes: ["4:1", "2:1"])
        #expect(try composition.timeMap().outputDuration == Self.t(14))
    }

    @Test func theLibraryFreezesOnTheEditTimeline() throws {
        var composition = Composition([try Clip(source: "a.mov", range: TimeRange(start: Self.t(1), end: Self.t(3))),
                                       try Clip(source: "b.mov", range: TimeRange(start: .zero, end: Self.t(2)))])
        try composition.freeze(at: Self.t(3), for: Self.t(1, 2))
        #expect(composition.clips[1].freezes.map(\.at) == [Self.t(1)])
        #expect(try composition.timeMap().outputDuration == Self.t(9, 2))
    }
}
