import Foundation
import SlomoTestSupport
import Testing

/// `slomo stretch` end to end: exact lengths on WAV for every algorithm, a movie's audio track,
/// and the bad inputs of the audio issue.
@Suite struct StretchCommandTests {
    /// 2 s of a 440 Hz stereo tone at 48 kHz with a −100 dBFS noise floor, as 16-bit WAV.
    static var toneWAV: String {
        get throws { try tone(sampleRate: 48000) }
    }

    /// 2 s of a 440 Hz stereo tone at `sampleRate` with a −100 dBFS noise floor, as 16-bit WAV.
    static func tone(sampleRate: Int) throws -> String {
        try FixtureCache.shared.path(for: sampleRate == 48000 ? "tone" : "tone\(sampleRate)", extension: "wav", arguments: [
            "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
            "aevalsrc='0.5*sin(2*PI*440*t)+0.00001*(2*random(0)-1)|0.5*sin(2*PI*440*t)+0.00001*(2*random(1)-1)'"
                + ":sample_rate=\(sampleRate):duration=2",
            "-c:a", "pcm_s16le"])
    }

    /// The number of sample frames ffprobe counts in the first audio stream.
    static func sampleFrames(_ path: String) throws -> Int {
        let result = try runChecked("ffprobe", ["-v", "error", "-select_streams", "a:0", "-count_packets", "-show_entries",
                                                "stream=duration_ts", "-of", "csv=p=0", path])
        return Int(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// `--rate -1` plays the sound backwards: each 10 ms beep (at k + 0.5 s) starts where its
    /// end was, mirrored (10 − k − 0.51 s), and the length stays 10 s to the sample.
    @Test func aNegativeRatePlaysTheSoundBackwards() throws {
        let output = try FixtureCache.shared.scratchFolder("stretch-backwards").appendingPathComponent("backwards.wav").path
        let result = try Slomo.run(["stretch", try Fixture.flashAndBeep.path, "--rate", "-1", "--audio", "varispeed", "-o", output])
        #expect(result.status == 0, "\(result.standardError)")
        let beeps = try SyncProbe.beepOnsets(output)
        let expected = (0..<10).map { 10 - Double(9 - $0) - 0.51 }
        let worst = zip(beeps, expected).map { abs($0 - $1) }.max() ?? .infinity
        print("stretch --rate -1: \(try Self.sampleFrames(output)) frames, beeps at \(beeps.map { String(format: "%.4f", $0) }), "
              + "worst \(String(format: "%.3f", worst * 1000)) ms from the mirror")
        #expect(try Self.sampleFrames(output) == 10 * 48000)
        #expect(beeps.count == 10 && worst < 0.001)
    }

    @Test(arguments: [["spectral"], ["spectral", "--spectral-engine", "rubberband"], ["time-domain"], ["low-latency"],
                      ["varispeed"]])
    func wavLengthIsExact(_ algorithm: [String]) throws {
        let output = try FixtureCache.shared.scratchFolder("stretch").appendingPathComponent("slow.wav").path
        let result = try Slomo.run(["stretch", try Self.toneWAV, "--rate", "0.8", "--audio"] + algorithm + ["-o", output, "-q"])
        #expect(result.status == 0, "\(result.standardError)")
        let frames = try Self.sampleFrames(output)
        print("stretch \(algorithm.joined(separator: " ")) 0.8x of 96000 frames: \(frames) frames (expected 120000)")
        #expect(frames == 120_000)
    }

    @Test func moviesFirstAudioTrackToFLAC() throws {
        let output = try FixtureCache.shared.scratchFolder("stretch-movie").appendingPathComponent("audio.flac").path
        let result = try Slomo.run(["stretch", try Fixture.flashAndBeep.path, "--section", "2-4x0.25", "--audio", "varispeed", "-o", output])
        #expect(result.status == 0, "\(result.standardError)")
        let probe = try FFprobe(output)
        #expect(probe.streams.count == 1)
        #expect(probe.stream("audio")?["codec_name"] as? String == "flac")
        #expect(try Self.sampleFrames(output) == 16 * 48000)
        let beeps = try SyncProbe.beepOnsets(output)
        #expect(beeps.count == 10)
        #expect(beeps.first.map { abs($0 - 0.5) < 0.001 } == true)
    }

    @Test(arguments: [
        (["--rate", "0"], "rate"),
        (["--rate=0"], "rate 0 would stop time"),
        (["--rate", "nan"], "rate"),
        (["--rate", "64"], "1/32"),
        (["--rate", "0.25", "--audio", "low-latency"], "low-latency"),
        (["--rate", "0.5", "--audio", "chipmunk"], "unknown audio algorithm"),
        (["--rate", "0.5", "--spectral-engine", "warp"], "phase-gradient, rubberband"),
    ])
    func badRatesAndAlgorithms(_ arguments: [String], mentions: String) throws {
        let folder = try FixtureCache.shared.scratchFolder("stretch-bad")
        let result = try Slomo.run(["stretch", try Self.toneWAV] + arguments + ["-o", folder.path + "/out.wav"])
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.lowercased().contains(mentions), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// Issue 37, defect 8: a bad --rate is blamed on --rate, not on a section the user never typed.
    @Test(arguments: ["40", "0"])
    func rateErrorsNameTheOption(rate: String) throws {
        let folder = try FixtureCache.shared.scratchFolder("stretch-rate")
        let result = try Slomo.run(["stretch", try Self.toneWAV, "--rate", rate, "-o", folder.path + "/out.wav"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("--rate \(rate):") && !result.standardError.contains("section"), "\(result.standardError)")
    }

    /// 2 s of a 220 Hz square wave at `amplitude`, 16-bit WAV: its stretched harmonics lose
    /// their alignment, so its peaks grow.
    static func squareWAV(amplitude: String) throws -> String {
        try FixtureCache.shared.path(for: "square-\(amplitude)", extension: "wav", arguments: [
            "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
            "aevalsrc='\(amplitude)*sgn(sin(2*PI*220*t))':sample_rate=48000:duration=2", "-c:a", "pcm_s16le"])
    }

    @Test func renderedAudioBeyondFullScaleIsReported() throws {
        let folder = try FixtureCache.shared.scratchFolder("stretch-clip")
        let loud = try Slomo.run(["stretch", try Self.squareWAV(amplitude: "0.95"), "--rate", "0.5", "--limiter", "off",
                                  "-o", folder.path + "/loud.wav"])
        #expect(loud.status == 0, "\(loud.standardError)")
        print("stretch of a 0.95 square wave at 0.5x: \(loud.standardError.trimmingCharacters(in: .whitespacesAndNewlines))")
        #expect(loud.standardError.contains("warning: audio:") && loud.standardError.contains("beyond full scale"))
        // With the limiter (the default), nothing clips and the warning says how much it lowered.
        let limited = try Slomo.run(["stretch", try Self.squareWAV(amplitude: "0.95"), "--rate", "0.5", "-o", folder.path + "/limited.wav"])
        #expect(limited.status == 0, "\(limited.standardError)")
        #expect(limited.standardError.contains("lowered by up to") && !limited.standardError.contains("beyond full scale"),
                "\(limited.standardError)")
        let quiet = try Slomo.run(["stretch", try Self.squareWAV(amplitude: "0.2"), "--rate", "0.5", "-o", folder.path + "/quiet.wav"])
        #expect(quiet.status == 0)
        #expect(!quiet.standardError.contains("warning"), "\(quiet.standardError)")
    }

    @Test func nonAudioUnreadableAndMissingFolder() throws {
        let folder = try FixtureCache.shared.scratchFolder("stretch-bad-input")
        let videoOnly = try Slomo.run(["stretch", try Fixture.videoOnly.path, "--rate", "0.5", "-o", folder.path + "/a.wav"])
        #expect(videoOnly.status == 1)
        #expect(videoOnly.standardError.contains("no audio"))
        let garbage = try BadInput.randomBytes.make(in: folder)
        let unreadable = try Slomo.run(["stretch", garbage, "--rate", "0.5", "-o", folder.path + "/b.wav"])
        #expect(unreadable.status == 1)
        #expect(unreadable.standardError.contains(garbage))
        let missing = try Slomo.run(["stretch", try Self.toneWAV, "--rate", "0.5", "-o", folder.path + "/nope/c.wav"])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("does not exist"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["random.mov"])
    }

    @Test func rateAndSectionsTogetherIsAUsageError() throws {
        let result = try Slomo.run(["stretch", try Self.toneWAV, "--rate", "0.5", "--section", "0-1x0.5"])
        #expect(result.status == 64)
    }
}
