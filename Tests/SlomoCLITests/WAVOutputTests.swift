import Foundation
import SlomoTestSupport
import Testing

/// `slomo stretch … -o X.wav` writes its WAV itself (without FFmpeg's muxer and encoder): the
/// samples are, to the bit, those the same stretch writes through FFmpeg into a Matroska file
/// with the same PCM codec, at every depth, for stereo at 44.1 kHz and 24-bit 5.1 at 96 kHz;
/// ffprobe reads the same stream from both, and the header is FFmpeg's kind (plain for 16-bit
/// stereo at up to 48 kHz, extensible, with the speakers, otherwise).
@Suite struct WAVOutputTests {
    /// 1.5 s of 24-bit 5.1 noise at 96 kHz, the six channels at different levels.
    static var surround: String {
        get throws {
            try FixtureCache.shared.path(for: "wav-output-51", extension: "wav", arguments: [
                "-v", "error", "-y", "-f", "lavfi", "-i", "anoisesrc=sample_rate=96000:duration=1.5:seed=11:amplitude=0.9",
                "-af", "pan=5.1|c0=c0|c1=0.5*c0|c2=0.2*c0|c3=0.1*c0|c4=0.7*c0|c5=0.3*c0", "-c:a", "pcm_s24le"])
        }
    }

    static let depths = ["s16", "s24", "s32", "f32"]

    @Test(arguments: depths, [false, true])
    func samplesMatchFFmpegsPCM(depth: String, surround: Bool) throws {
        let source = surround ? try Self.surround : try StretchCommandTests.tone(sampleRate: 44100)
        let folder = try FixtureCache.shared.scratchFolder("wav-output")
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = folder.appendingPathComponent("slow.wav").path, mkv = folder.appendingPathComponent("slow.mkv").path
        for output in [wav, mkv] {
            let result = try Slomo.run(["stretch", source, "--rate", "0.7", "--sample-format", depth, "--audio-codec", "pcm",
                                        "--progress", "none", "-o", output])
            #expect(result.status == 0, "\(result.standardError)")
        }
        let samples = try Self.decoded(wav)
        #expect(samples == (try Self.decoded(mkv)), "\(depth): the WAV's samples differ from FFmpeg's")
        #expect(!samples.isEmpty)

        let (ours, theirs) = (try #require(try FFprobe(wav).stream("audio")), try #require(try FFprobe(mkv).stream("audio")))
        for key in ["codec_name", "sample_fmt", "sample_rate", "channels", "bits_per_sample"] {
            #expect(ours[key] as? NSObject == theirs[key] as? NSObject, "\(depth) \(key): \(ours[key] ?? "none") against \(theirs[key] ?? "none")")
        }
        // Matroska keeps no layout for PCM; an extensible header names the speakers, a plain one only counts them.
        let plain = depth == "s16" && !surround
        #expect(ours["channel_layout"] as? String == (plain ? nil : surround ? "5.1" : "stereo"))
        let frames = (surround ? 144_000 : 88_200) * 10 / 7
        #expect(try StretchCommandTests.sampleFrames(wav) == frames)

        let header = try Data(contentsOf: URL(fileURLWithPath: wav)).prefix(22)
        let tag = UInt16(header[20]) | UInt16(header[21]) << 8
        #expect(tag == (depth == "s16" && !surround ? 1 : 0xFFFE), "format tag \(tag)")
    }

    @Test func keepsAnExistingOutputAndLeavesNothingOnFailure() throws {
        let folder = try FixtureCache.shared.scratchFolder("wav-output-kept")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("slow.wav").path
        try Data("mine".utf8).write(to: URL(fileURLWithPath: output))
        let refused = try Slomo.run(["stretch", try StretchCommandTests.tone(sampleRate: 44100), "--rate", "0.5", "-o", output])
        #expect(refused.status != 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data("mine".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["slow.wav"])
    }

    /// A WAV cut short is stretched for what it holds (as FFmpeg reads it: its length
    /// estimated from the bytes there are) and the damage is said.
    @Test func aCutInputIsStretchedAndReported() throws {
        let folder = try FixtureCache.shared.scratchFolder("wav-output-cut")
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = try Data(contentsOf: URL(fileURLWithPath: try StretchCommandTests.tone(sampleRate: 44100)))
        let cut = folder.appendingPathComponent("cut.wav").path, output = folder.appendingPathComponent("slow.wav").path
        try whole.prefix(whole.count - 44100 * 4 / 2).write(to: URL(fileURLWithPath: cut))
        let result = try Slomo.run(["stretch", cut, "--rate", "0.5", "--progress", "none", "-o", output])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("cut.wav: audio ends at 1.50 s of 2.00 s, 22050 sample frames missing (file truncated?)"),
                "\(result.standardError)")
        #expect(try StretchCommandTests.sampleFrames(output) == 3 * 44100)
    }

    /// Every sample of the first audio stream as 64-bit floats (exact for every depth).
    static func decoded(_ path: String) throws -> Data {
        let (status, samples, _) = try runCapturingFiles("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-map", "0:a:0",
                                                                     "-f", "f64le", "-"])
        #expect(status == 0, "ffmpeg could not decode \(path)")
        return samples
    }
}
