import Foundation
import SlomoCore
import SlomoDetect
import SlomoTestSupport
import Testing

/// `MomentDetector` on clips with known ground truth: the landing of a falling square is the
/// strongest moment, to its frame, and its click to 2 ms; a pan and a cut are never action;
/// the stronger of two landings ranks first; motion alone and sound alone still find their
/// moment, and a clip with neither has none. Each test prints what it measured.
@Suite struct MomentDetectorTests {
    static func analyse(_ clip: SyntheticClip, _ name: String) throws -> MomentAnalysis {
        let folder = try FixtureCache.shared.scratchFolder("detect-\(name)")
        let analysis = try MomentDetector().analyse(path: try clip.write(named: name, in: folder).path)
        print("detect \(name): \(analysis.moments.map { "\($0.time.formattedSeconds()) s frame \($0.frame ?? -1) score \(String(format: "%.2f", $0.score)) \($0.foundBy.map(\.rawValue))" }); cuts \(analysis.cuts.map { $0.formattedSeconds() }); onsets \(analysis.onsets.map { $0.time.formattedSeconds(fractionDigits: 5) })")
        return analysis
    }

    /// The frame a landing at `seconds` is first at rest in.
    static func frame(at seconds: Double) -> Int { Int((seconds * Double(SyntheticClip.rate)).rounded()) }

    static func expectLanding(_ moment: Moment?, at seconds: Double, foundBy: [Moment.Evidence]) {
        guard let moment else { Issue.record("no moment found"); return }
        #expect(abs((moment.frame ?? -10) - frame(at: seconds)) <= 1, "landing at frame \(frame(at: seconds)), found \(moment.frame ?? -1)")
        #expect(moment.foundBy == foundBy)
        if let onset = moment.soundOnset {
            let error = abs(onset.doubleSeconds - seconds)
            print("sound onset \(onset.formattedSeconds(fractionDigits: 5)) s, \(String(format: "%.2f", error * 1000)) ms from the click")
            #expect(error <= 0.002)
        }
    }

    @Test func landingWithClickIsTheMoment() throws {
        let analysis = try Self.analyse(SyntheticClip(), "landing")
        Self.expectLanding(analysis.moments.first, at: 1.2, foundBy: [.motion, .sound])
        #expect(analysis.moments.count == 1, "nothing else moves: \(analysis.moments)")
        #expect(analysis.cuts.isEmpty)
        let section = try #require(analysis.moments.first?.section)
        #expect(section == TimeRange(start: MediaTime(value: 1, timescale: 5), end: MediaTime(value: 2, timescale: 1)))
    }

    /// With B-frames the first pass measures only the pictures others refer to, and every
    /// frame around where motion ends: the landing keeps its exact frame.
    @Test func landingIsExactWithBFrames() throws {
        let analysis = try Self.analyse(SyntheticClip(bFrames: true), "landing-b-frames")
        Self.expectLanding(analysis.moments.first, at: 1.2, foundBy: [.motion, .sound])
        #expect(analysis.frames == 480)
        #expect(analysis.motion.count < 400, "the first pass skipped pictures: \(analysis.motion.count) measured")
        // The first pass finds where motion ends to within a few frames; the second measures
        // 60 ms either side of that: at least every frame within 30 ms of the landing (281–295).
        let around = analysis.motion.filter { abs($0.time.doubleSeconds - 1.2) <= 0.03 }
        #expect(around.count == 15, "every frame within 30 ms of the landing: \(around.count)")
        print("B-frames: \(analysis.motion.count) of \(analysis.frames) frames measured")
    }

    @Test func panningCameraIsNotAction() throws {
        let pan = try Self.analyse(SyntheticClip(falls: [], background: .panning, sound: false), "pan-only")
        #expect(pan.moments.isEmpty, "a pan alone: \(pan.moments)")
        #expect(pan.cuts.isEmpty)
        let shifts = pan.motion.dropFirst().map(\.panX).filter { $0 != 0 }
        #expect(!shifts.isEmpty, "the pan is measured")
        let landing = try Self.analyse(SyntheticClip(background: .panning), "pan-landing")
        Self.expectLanding(landing.moments.first, at: 1.2, foundBy: [.motion, .sound])
    }

    @Test func cutIsFoundAndNeverAction() throws {
        let analysis = try Self.analyse(SyntheticClip(background: .cut(at: 0.5)), "cut")
        #expect(analysis.cuts.count == 1)
        if let cut = analysis.cuts.first { #expect(abs(cut.doubleSeconds - 0.5) <= 1.0 / 240 + 1e-9, "cut at \(cut)") }
        Self.expectLanding(analysis.moments.first, at: 1.2, foundBy: [.motion, .sound])
        #expect(!analysis.moments.contains { abs($0.time.doubleSeconds - 0.5) < 0.1 }, "the cut reported as action")
    }

    @Test func strongerOfTwoLandingsRanksFirst() throws {
        // One after the other: the first lands before the second starts to fall.
        let clip = SyntheticClip(falls: [SyntheticClip.Fall(x: 40, size: 16, landing: 1.25, click: 0.1),
                                         SyntheticClip.Fall(x: 220, size: 40, landing: 2.6, click: 0.8)], duration: 3)
        let analysis = try Self.analyse(clip, "two-landings")
        #expect(analysis.moments.count == 2)
        Self.expectLanding(analysis.moments.first, at: 2.6, foundBy: [.motion, .sound])
        Self.expectLanding(analysis.moments.dropFirst().first, at: 1.25, foundBy: [.motion, .sound])
    }

    @Test func motionAloneAndSoundAloneFindTheirMoment() throws {
        let silent = try Self.analyse(SyntheticClip(sound: false), "silent")
        Self.expectLanding(silent.moments.first, at: 1.2, foundBy: [.motion])
        let still = try Self.analyse(SyntheticClip(falls: []).adding(click: 0.9), "still-with-click")
        Self.expectLanding(still.moments.first, at: 0.9, foundBy: [.sound])
        let nothing = try Self.analyse(SyntheticClip(falls: [], sound: true), "nothing")
        #expect(nothing.moments.isEmpty)
    }
}

extension SyntheticClip {
    /// The clip with a click at `seconds` and nothing falling (the square off the picture).
    func adding(click amplitude: Double, at seconds: Double = 0.9) -> SyntheticClip {
        var clip = self
        clip.falls = [Fall(x: 400, size: 8, landing: seconds, click: amplitude)]
        return clip
    }
}
