import Foundation
import SlomoCore
import SlomoExport
import SlomoMedia
import SlomoTestSupport
import Testing

/// Flashes and beeps land where the time map sends them: video exactly, audio within a
/// millisecond outside sections and within each algorithm's transient bound inside them.
@Suite struct PassthroughSyncTests {
    /// Retimes the flash-and-beep clip and returns the output path and the map used.
    static func retime(_ sections: [String], audio: TimePitchAlgorithm, pitch: Double = 0) throws -> (path: String, map: TimeMap) {
        let input = try Fixture.flashAndBeep.path
        let composition = try Composition(retiming: try MediaFile(path: input),
                                          sections: sections)
        let output = try FixtureCache.shared.scratchFolder("sync").appendingPathComponent("out.mov").path
        let result = try ExportSession(composition: composition, to: output,
                                       settings: ExportSettings(audioAlgorithm: audio, pitch: pitch)).run()
        #expect(result.nudgedPackets == 0)
        return (output, try composition.clips[0].timeMap())
    }

    /// Checks every flash and beep of a retimed flash-and-beep clip.
    static func checkSync(_ sections: [String], audio: TimePitchAlgorithm, insideBound: Double, pitch: Double = 0,
                          outsideBound: Double = 0.001) throws {
        let (output, map) = try retime(sections, audio: audio, pitch: pitch)
        let expected = (0..<10).map { map.outputTime(at: MediaTime(seconds: Rational(2 * Int64($0) + 1, 2))).doubleSeconds }
        let flashes = try SyncProbe.flashTimes(output)
        let beeps = try SyncProbe.beepOnsets(output)
        #expect(flashes.count == expected.count, "flashes at \(flashes), expected \(expected)")
        for (flash, target) in zip(flashes, expected) {
            #expect(abs(flash - target) < 2e-6, "flash at \(flash) s, map says \(target) s")
        }
        #expect(beeps.count == expected.count, "beeps at \(beeps), expected \(expected)")
        var worstOutside = 0.0, worstInside = 0.0
        for (index, target) in expected.enumerated() {
            guard let beep = beeps.min(by: { abs($0 - target) < abs($1 - target) }) else { continue }
            let source = MediaTime(seconds: Rational(2 * Int64(index) + 1, 2))
            let segment = map.segments[map.segmentIndex(containingSource: source)]
            let offset = abs(beep - target)
            if segment.section == nil {
                worstOutside = max(worstOutside, offset)
                #expect(offset <= outsideBound, "beep \(index) at \(beep) s, flash at \(target) s (outside sections)")
            } else {
                worstInside = max(worstInside, offset)
                #expect(offset <= insideBound,
                        "beep \(index) at \(beep) s, flash at \(target) s (\(audio), inside \(segment.shape))")
            }
        }
        let samples = try runChecked("ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries", "stream=duration_ts",
                                                 "-of", "csv=p=0", output]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Int(samples) == Int(try map.outputDuration.ticks(in: Rational(1, 48000), rounding: .nearest)),
                "the track holds \(samples) samples for \(map.outputDuration.doubleSeconds) s")
        print("sync \(sections.joined(separator: " ")) \(audio)\(pitch == 0 ? "" : " --pitch \(pitch)"): worst beep offset outside \(String(format: "%.3f", worstOutside * 1000)) ms, inside \(String(format: "%.3f", worstInside * 1000)) ms")
    }

    @Test(arguments: [(TimePitchAlgorithm.varispeed, 0.001), (.spectral, 0.002), (.timeDomain, 0.010)])
    func quarterSpeedSection(_ audio: TimePitchAlgorithm, bound: Double) throws {
        try Self.checkSync(["2-4x0.25"], audio: audio, insideBound: bound)
    }

    /// An output longer than 44 s has its AAC encoded in two lanes (`AudioEncoderLanes`): every
    /// beep of a minute's clip, before, at and after the seam (31.02 s: two segments of 1454
    /// packets), stays within 1 ms of its flash, and the sound lasts exactly as long as the map says.
    @Test func aMinuteEncodedInLanesKeepsSync() throws {
        let input = try Fixture.minuteFlashAndBeep.path
        let composition = try Composition(retiming: try MediaFile(path: input), sections: ["10-12x0.5"])
        let output = try FixtureCache.shared.scratchFolder("lanes-sync").appendingPathComponent("out.mov").path
        _ = try ExportSession(composition: composition, to: output, settings: ExportSettings(audioAlgorithm: .spectral)).run()
        let map = try composition.clips[0].timeMap()
        let beeps = try SyncProbe.beepOnsets(output)
        let expected = (0..<60).map { Rational(2 * Int64($0) + 1, 2) }.filter { $0 < Rational(10) || $0 >= Rational(12) }
            .map { map.outputTime(at: MediaTime(seconds: $0)).doubleSeconds }
        var worst = 0.0
        for target in expected {
            let beep = try #require(beeps.min { abs($0 - target) < abs($1 - target) })
            worst = max(worst, abs(beep - target))
            #expect(abs(beep - target) <= 0.001, "beep at \(beep) s, flash at \(target) s")
        }
        let samples = try runChecked("ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries", "stream=duration_ts",
                                                 "-of", "csv=p=0", output]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        print("lanes: \(expected.count) beeps outside the section, worst offset \(String(format: "%.3f", worst * 1000)) ms; "
              + "the track holds \(samples) samples for \(map.outputDuration.doubleSeconds) s")
        #expect(samples == "\(62 * 48000)")
    }

    /// A shifted pitch keeps the track's length to the sample and every beep where the map
    /// puts it, through sections, a speed-up and an eased ramp: the engine renders at a sample
    /// rate the shift away and its samples are taken at the track's. Every beep goes through
    /// the engine then, outside sections too (slowed 1.19x at +3, sped up 1.33x at −5), so each
    /// is held to the engine's onset accuracy (measured, spectral: +3 0.54 ms outside, 2.21 ms
    /// in the 0.21x-equivalent ramp; −5 1.21 ms outside, 3.79 ms in the 2.67x-equivalent
    /// section; time-domain, whose WSOLA places onsets: 0.38 ms and 7.5 ms).
    @Test(arguments: [(TimePitchAlgorithm.spectral, 3.0, 0.001, 0.0025), (.spectral, -5.0, 0.0015, 0.004),
                      (.timeDomain, 3.0, 0.002, 0.015)])
    func shiftedPitchKeepsSync(_ audio: TimePitchAlgorithm, semitones: Double, outsideBound: Double, insideBound: Double) throws {
        try Self.checkSync(["1-2x0.5", "3-4x2", "5-7x0.25:ramp=0.5"], audio: audio, insideBound: insideBound, pitch: semitones,
                           outsideBound: outsideBound)
    }

    @Test func lowLatencyAtHalfSpeed() throws {
        try Self.checkSync(["2-4x0.5"], audio: .lowLatency, insideBound: 0.030)
    }

    @Test(arguments: [["1-2x0.5", "5-7x0.25"], ["6-10x4"], ["2-4x0.25:ramp=0.5"]])
    func otherSectionShapes(_ sections: [String]) throws {
        try Self.checkSync(sections, audio: .spectral, insideBound: 0.002)
    }
}
