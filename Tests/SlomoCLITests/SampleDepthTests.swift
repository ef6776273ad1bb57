import Foundation
import SlomoTestSupport
import Testing

/// Sound at the source's depth: 24-bit and float sources stay 24-bit and float in lossless
/// outputs, bit for bit where the rate is 1; `--sample-format` chooses; `--gain` scales.
@Suite struct SampleDepthTests {
    /// 3 s of stereo 48 kHz audio whose every bit varies (a tone plus low-level noise), written
    /// with `codec` into `name` (`pcm_s24le` into .wav, `pcm_s24le` into a .mov with video, …).
    static func source(_ name: String, codec: String, video: Bool = false) throws -> String {
        let folder = try FixtureCache.shared.scratchFolder("depth-source")
        let path = folder.appendingPathComponent(name).path
        var arguments = ["-v", "error", "-y"]
        if video { arguments += ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30:duration=3"] }
        arguments += ["-f", "lavfi", "-i", "aevalsrc='0.5*sin(2*PI*440*t)+0.001*(2*random(0)-1)|0.4*sin(2*PI*660*t)+0.001*(2*random(1)-1)'"
                      + ":sample_rate=48000:duration=3"]
        if video { arguments += ["-c:v", "libx264", "-preset", "ultrafast"] }
        _ = try runChecked("ffmpeg", arguments + ["-c:a", codec, path])
        return path
    }

    /// The first audio stream's samples from `start` for `seconds`, decoded as `format` (`s32le`,
    /// `f32le`): raw bytes, for comparing bit for bit.
    static func samples(_ path: String, format: String, start: Double = 0, seconds: Double) throws -> Data {
        let (status, data, _) = try runCapturingFiles("ffmpeg", ["-v", "error", "-nostdin", "-ss", "\(start)", "-t", "\(seconds)",
                                                                  "-i", path, "-map", "0:a:0", "-f", format, "-"])
        #expect(status == 0)
        return data
    }

    static func audioStream(_ path: String) throws -> [String: Any] {
        try #require(try FFprobe(path).stream("audio"))
    }

    /// `stretch` of a 24-bit WAV into WAV and FLAC, of a float WAV into WAV: the output keeps the
    /// depth, and the first 1.5 s (rate 1, before the section) are the input's samples exactly.
    @Test(arguments: [("s24.wav", "pcm_s24le", "out.wav", "pcm_s24le", "s32le"), ("s24.wav", "pcm_s24le", "out.flac", "flac", "s32le"),
                      ("f32.wav", "pcm_f32le", "out.wav", "pcm_f32le", "f32le")])
    func stretchKeepsTheDepth(input: String, codec: String, output: String, written: String, compare: String) throws {
        let source = try Self.source(input, codec: codec)
        let folder = try FixtureCache.shared.scratchFolder("depth-stretch")
        let target = folder.appendingPathComponent(output).path
        let result = try Slomo.run(["stretch", source, "--section", "2-2.5x0.5", "-o", target])
        #expect(result.status == 0, "\(result.standardError)")
        let stream = try Self.audioStream(target)
        #expect(stream["codec_name"] as? String == written)
        if written == "flac" { #expect(stream["bits_per_raw_sample"] as? String == "24") }
        let before = try Self.samples(source, format: compare, seconds: 1.5), after = try Self.samples(target, format: compare, seconds: 1.5)
        let bytes = 72_000 * 2 * 4    // 1.5 s of stereo 4-byte samples
        #expect(before.count == bytes, "\(input): \(before.count) bytes decoded")
        #expect(before == after, "\(input) → \(output): the rate-1 part is bit for bit")
        print("depth: \(input) → \(output): \(written)\(written == "flac" ? " 24-bit" : ""), first 1.5 s bit for bit")
    }

    /// `retime` of a movie with 24-bit PCM keeps 24-bit PCM, bit for bit where the rate is 1.
    @Test func retimeKeepsTwentyFourBitPCM() throws {
        let source = try Self.source("s24.mov", codec: "pcm_s24le", video: true)
        let target = try FixtureCache.shared.scratchFolder("depth-retime").appendingPathComponent("out.mov").path
        let result = try Slomo.run(["retime", source, "--section", "2-2.5x0.5", "--audio-codec", "pcm", "-o", target])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try Self.audioStream(target)["codec_name"] as? String == "pcm_s24le")
        #expect(try Self.samples(source, format: "s32le", seconds: 1.5) == (try Self.samples(target, format: "s32le", seconds: 1.5)))
    }

    /// A ProRes export of a movie with PCM sound is a mezzanine: its sound stays PCM (at the
    /// source's 24 bits) unless another codec is asked for; H.264 gets AAC.
    @Test(arguments: [("prores", "out.mov", "pcm_s24le"), ("h264", "out.mp4", "aac")])
    func aMezzanineKeepsPCM(codec: String, output: String, audio: String) throws {
        let source = try Self.source("s24.mov", codec: "pcm_s24le", video: true)
        let target = try FixtureCache.shared.scratchFolder("depth-mezzanine").appendingPathComponent(output).path
        let result = try Slomo.run(["export", source, "--section", "1-2x0.5", "--cfr", "30", "--codec", codec,
                                    "--preset", "ultrafast", "-o", target].filter { codec == "prores" ? $0 != "--preset" && $0 != "ultrafast" : true })
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try Self.audioStream(target)["codec_name"] as? String == audio)
    }

    @Test func sampleFormatChoosesAndGainScales() throws {
        let source = try Self.source("s16.wav", codec: "pcm_s16le")
        let folder = try FixtureCache.shared.scratchFolder("depth-choose")
        let target = folder.appendingPathComponent("out.wav").path
        let result = try Slomo.run(["stretch", source, "--section", "2-2.5x0.5", "--sample-format", "f32", "--gain", "-6", "-o", target])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try Self.audioStream(target)["codec_name"] as? String == "pcm_f32le")
        func floats(_ data: Data) -> [Float] { data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) } }
        let input = floats(try Self.samples(source, format: "f32le", seconds: 1.5))
        let output = floats(try Self.samples(target, format: "f32le", seconds: 1.5))
        let expected = Float(pow(10, -6.0 / 20))
        let worst = zip(input, output).map { abs($1 - $0 * expected) }.max() ?? 1
        print("--gain -6: worst sample off the scaled input by \(worst)")
        #expect(input.count == output.count && worst < 1e-6)
    }

    @Test(arguments: [
        (["--sample-format", "s24", "-o", "$OUT/x.mp3"], "mp3 is lossy and keeps no sample format"),
        (["--sample-format", "f32", "-o", "$OUT/x.flac"], "flac audio holds s16 or s24 samples, not f32"),
        (["--sample-format", "s20", "-o", "$OUT/x.wav"], "unknown sample format 's20'"),
        (["--gain", "90", "-o", "$OUT/x.wav"], "--gain 90.0: give a gain in dB between -60 and 60"),
    ])
    func mistakesAreUsageErrors(_ arguments: [String], mentions: String) throws {
        let folder = try FixtureCache.shared.scratchFolder("depth-mistakes")
        let result = try Slomo.run(["stretch", try Self.source("s24.wav", codec: "pcm_s24le"), "--rate", "0.8"]
                                   + arguments.map { $0.replacingOccurrences(of: "$OUT", with: folder.path) })
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains(mentions), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
