import Foundation
import SlomoCore
import SlomoExport
import SlomoMedia
import SlomoTestSupport
import Testing

/// Freeze frames exported: the flash-and-beep clip with the frame at 3 s held for 2 s. After
/// the hold every flash and beep lands 2 s later; the held picture is the source's; the hold is
/// silent, or holds a tone at its pitch and level with `audio=freeze`.
@Suite struct FreezeExportTests {
    static func export(_ fixture: Fixture, freezes: [String], sections: [String] = [], cfr: Rational? = nil,
                       audio: TimePitchAlgorithm = .spectral, name: String) throws -> (path: String, map: TimeMap) {
        let composition = try Composition(retiming: try MediaFile(path: try fixture.path), sections: sections, freezes: freezes)
        let output = try FixtureCache.shared.scratchFolder("freeze").appendingPathComponent(name).path
        let settings = ExportSettings(mode: cfr.map { .constantFrameRate($0) } ?? .passthrough, audioAlgorithm: audio)
        var video = VideoExportSettings()
        video.preset = "ultrafast"
        video.crf = 10
        try ExportSession(composition: composition, to: output, settings: settings, video: video).run()
        return (output, try composition.clips[0].timeMap())
    }

    /// Flashes within a frame's rounding and beeps within 1 ms of where the map puts them
    /// (source k + 0.5 s); the beeps after the hold 2 s later than without it.
    static func checkSync(_ path: String, map: TimeMap, flashTolerance: Double, label: String) throws {
        let expected = (0..<10).map { map.outputTime(at: MediaTime(seconds: Rational(2 * Int64($0) + 1, 2))).doubleSeconds }
        let flashes = try SyncProbe.flashTimes(path)
        let beeps = try SyncProbe.beepOnsets(path)
        #expect(flashes.count == 10 && beeps.count == 10, "\(label): flashes \(flashes), beeps \(beeps)")
        let flashErrors = zip(flashes, expected).map { abs($0 - $1) }
        let beepErrors = zip(beeps, expected).map { abs($0 - $1) }
        print("\(label): worst flash offset \(String(format: "%.3f", flashErrors.max()! * 1000)) ms, "
              + "worst beep offset \(String(format: "%.3f", beepErrors.max()! * 1000)) ms; after the hold at "
              + "\(expected[3...].map { String(format: "%.3f", $0) })")
        #expect(flashErrors.allSatisfy { $0 <= flashTolerance })
        #expect(beepErrors.allSatisfy { $0 <= 0.001 })
        #expect(abs(expected[3] - 5.5) < 1e-9, "the flash at 3.5 s plays 2 s later")
    }

    /// The loudest sample of `samples` (mono at 48 kHz) between two output times.
    static func peak(_ samples: [Float], from start: Double, to end: Double) -> Float {
        let range = Int(start * 48000)..<Int(end * 48000)
        return samples[range].map(abs).max() ?? 0
    }

    @Test func passthroughHoldsOnePacketAndShiftsWhatFollows() throws {
        let (output, map) = try Self.export(.flashAndBeep, freezes: ["3:2"], name: "freeze.mov")
        try Self.checkSync(output, map: map, flashTolerance: 2e-6, label: "passthrough --freeze 3:2")
        // The held picture is the source's packet at 3 s, copied; it is shown for 2 s more.
        let source = try FFprobe.packets(try Fixture.flashAndBeep.path).sorted { $0.pts < $1.pts }
        let packets = try FFprobe.packets(output).sorted { $0.pts < $1.pts }
        #expect(packets.count == source.count)
        let timeBase = try #require((try FFprobe(output).stream("video")?["time_base"] as? String).flatMap { Rational(decimal: $0) })
        let times = packets.map { Double($0.pts) * timeBase.doubleValue }
        let held = try #require(times.firstIndex { abs($0 - 3) < 1e-9 })
        #expect(held == 720)
        #expect(abs(times[held + 1] - times[held] - (2 + 1.0 / 240)) < 1e-9, "the held frame lasts 2 s more")
        let hashes = try PassthroughTimingTests.packetHashes(output), sourceHashes = try PassthroughTimingTests.packetHashes(try Fixture.flashAndBeep.path)
        #expect(hashes == sourceHashes, "every packet copied bit for bit, the held one once")
        // Silence while the picture holds (after the 10 ms fade of the sound at 3 s).
        let samples = try SyncProbe.samples(output)
        let hold = Self.peak(samples, from: 3.02, to: 5.0)
        print("passthrough --freeze 3:2: peak during the hold \(20 * log10(max(hold, 1e-10))) dBFS")
        #expect(hold < 0.001)
    }

    @Test func constantFrameRateRepeatsTheFrame() throws {
        let (output, map) = try Self.export(.flashAndBeep, freezes: ["3:2"], cfr: Rational(60), name: "freeze.mp4")
        try Self.checkSync(output, map: map, flashTolerance: 1.0 / 60 + 1e-6, label: "CFR 60 --freeze 3:2")
    }

    /// On a picture that changes every frame (testsrc2 at 60 fps), every frame of the hold is
    /// the source frame at 1 s (PSNR ≥ 50 dB) and not its neighbours.
    @Test func constantFrameRateHoldsTheSourceFrame() throws {
        let (output, _) = try Self.export(.videoOnly, freezes: ["1:0.5"], cfr: Rational(60), name: "held.mp4")
        let folder = URL(fileURLWithPath: output).deletingLastPathComponent().path
        func frame(_ path: String, at seconds: Double, to name: String) throws -> String {
            _ = try runChecked("ffmpeg", ["-v", "error", "-y", "-ss", "\(seconds)", "-i", path, "-frames:v", "1", "\(folder)/\(name).png"])
            return "\(folder)/\(name).png"
        }
        func psnr(_ a: String, _ b: String) throws -> Double {
            let text = try runChecked("ffmpeg", ["-v", "info", "-i", a, "-i", b, "-lavfi", "psnr", "-f", "null", "-"]).standardError
            if text.contains("average:inf") { return .infinity }
            return text.components(separatedBy: "average:").last.flatMap { Double($0.split(separator: " ").first ?? "") } ?? 0
        }
        let source = try frame(try Fixture.videoOnly.path, at: 1, to: "source")
        let neighbour = try frame(try Fixture.videoOnly.path, at: 1 + 1.0 / 60, to: "neighbour")
        var worst = Double.infinity
        for second in [1.1, 1.25, 1.45] {
            worst = min(worst, try psnr(try frame(output, at: second, to: "held-\(second)"), source))
        }
        let apart = try psnr(neighbour, source)
        print("CFR --freeze 1:0.5: held pictures against the source frame at 1 s: worst PSNR \(worst) dB "
              + "(the next source frame: \(String(format: "%.1f", apart)) dB)")
        #expect(worst >= 50)
        #expect(apart < 40, "neighbouring frames differ, so the check can tell them apart")
    }

    /// A held 440 Hz tone keeps its pitch (± 1 cent) and level (± 1 dB) through the hold.
    @Test func audioFreezeHoldsTheToneAtItsPitchAndLevel() throws {
        let (output, _) = try Self.export(.ntsc, freezes: ["1:2:audio=freeze"], name: "tone.mov")
        let left = try SyncProbe.samples(output)
        func rms(_ start: Double, _ end: Double) -> Double {
            let part = left[Int(start * 48000)..<Int(end * 48000)]
            return (part.reduce(0) { $0 + Double($1) * Double($1) } / Double(part.count)).squareRoot()
        }
        let held = Array(left[Int(1.5 * 48000)..<Int(2.5 * 48000)])
        let frequency = Self.frequency(held)
        let cents = 1200 * log2(frequency / 440)
        let levelChange = 20 * log10(rms(1.5, 2.5) / rms(0.2, 0.9))
        print("audio=freeze: held tone \(String(format: "%.4f", frequency)) Hz (\(String(format: "%.3f", cents)) cents), "
              + "level \(String(format: "%+.2f", levelChange)) dB against the source")
        #expect(abs(cents) <= 1)
        #expect(abs(levelChange) <= 1)
    }

    /// The frequency of a steady tone: zero crossings, refined by linear interpolation.
    static func frequency(_ x: [Float]) -> Double {
        var crossings: [Double] = []
        for i in 1..<x.count where x[i - 1] < 0 && x[i] >= 0 {
            crossings.append(Double(i - 1) + Double(-x[i - 1] / (x[i] - x[i - 1])))
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) / ((last - first) / 48000)
    }
}
