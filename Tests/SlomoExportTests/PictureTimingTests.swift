import SlomoComposition
import SlomoCore
import Testing

/// The one rule of which picture a composition shows, and from when (`PictureTiming`).
@Suite("Picture timing")
struct PictureTimingTests {
    static func t(_ n: Int64, _ d: Int64 = 1) -> MediaTime { MediaTime(seconds: Rational(n, d)) }

    @Test func thePictureOnScreenIsTheLastStartedElseTheFirst() {
        let starts = [Self.t(1), Self.t(2), Self.t(3)]
        #expect(PictureTiming.onScreen(at: Self.t(2), among: starts, startingAt: { $0 }) == 1, "one starting at the time is on screen")
        #expect(PictureTiming.onScreen(at: Self.t(29, 10), among: starts, startingAt: { $0 }) == 1)
        #expect(PictureTiming.onScreen(at: Self.t(9), among: starts, startingAt: { $0 }) == 2)
        #expect(PictureTiming.onScreen(at: Self.t(1, 2), among: starts, startingAt: { $0 }) == 0, "before any: the first")
        #expect(PictureTiming.onScreen(at: Self.t(1), among: [MediaTime](), startingAt: { $0 }) == nil)
    }

    /// 0–2 s forwards, 2–4 s backwards at half speed (4 s of output), then forwards again.
    @Test func forwardsFromItsTimeBackwardsFromTheEndOfItsDisplay() throws {
        let map = try TimeMap(sections: [try Section(reversing: Self.t(2)..<Self.t(4), rate: Rate(Rational(1, 2)))],
                              clipDuration: Self.t(6))
        let runs = map.runs
        #expect(runs.count == 3 && runs[1].reversed)
        // Forwards: a picture shows from where its time plays; one begun before the run, from the run's start.
        #expect(PictureTiming.outputTime(showing: Self.t(1)..<Self.t(11, 10), in: runs[0], of: map) == Self.t(1))
        #expect(PictureTiming.outputTime(showing: Self.t(39, 10)..<Self.t(41, 10), in: runs[2], of: map) == Self.t(6))
        #expect(PictureTiming.outputTime(showing: Self.t(5)..<Self.t(51, 10), in: runs[2], of: map) == Self.t(7))
        // Backwards: the section's last picture (3.9–4 s) shows first, at 2 s; the one at 3–3.1 s
        // from where 3.1 s plays (2 + 2·0.9 = 3.8 s); the first picture from 5.8 s.
        #expect(PictureTiming.outputTime(showing: Self.t(39, 10)..<Self.t(4), in: runs[1], of: map) == Self.t(2))
        #expect(PictureTiming.outputTime(showing: Self.t(3)..<Self.t(31, 10), in: runs[1], of: map) == Self.t(38, 10))
        #expect(PictureTiming.outputTime(showing: Self.t(2)..<Self.t(21, 10), in: runs[1], of: map) == Self.t(58, 10))
    }
}
