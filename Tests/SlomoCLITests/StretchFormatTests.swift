import Foundation
import SlomoTestSupport
import Testing

/// `slomo stretch` output formats end to end (issue 16, item 6): every extension/codec pair of
/// the table writes that codec at the expected rate and length, contradictions are usage
/// errors that list the valid pairs, and an existing output is kept without `--overwrite`.
@Suite struct StretchFormatTests {
    /// 2 s of a 440 Hz stereo tone at 44.1 kHz (a rate Opus cannot encode) with a −100 dBFS
    /// noise floor, as 16-bit WAV.
    static var tone44k: String {
        get throws { try StretchCommandTests.tone(sampleRate: 44100) }
    }

    /// One extension/codec pair: the arguments that ask for it, and what ffprobe should find.
    struct Pair: CustomTestStringConvertible, Sendable {
        let fileExtension: String
        let codecOption: String?
        let codecName: String
        let sampleRate: Int
        /// Samples the decoded output may have beyond the exact length: 0 for lossless codecs,
        /// else one codec frame (plus AAC's 1024 priming samples in .mkv, which Matroska has
        /// no field for in FFmpeg 5.1).
        let slack: Int

        init(_ fileExtension: String, _ codecOption: String?, probe codecName: String, rate: Int = 44100, slack: Int = 0) {
            self.fileExtension = fileExtension
            self.codecOption = codecOption
            self.codecName = codecName
            sampleRate = rate
            self.slack = slack
        }

        var testDescription: String { ".\(fileExtension) \(codecOption ?? "default") → \(codecName)" }
    }

    static let pairs: [Pair] = [
        Pair("wav", nil, probe: "pcm_s16le"),
        Pair("flac", nil, probe: "flac"),
        Pair("m4a", nil, probe: "aac", slack: 1024),
        Pair("m4a", "alac", probe: "alac"),
        Pair("mp3", nil, probe: "mp3", slack: 1152),
        Pair("opus", nil, probe: "opus", rate: 48000, slack: 960),
        Pair("ogg", nil, probe: "vorbis", slack: 2048),
        Pair("ogg", "opus", probe: "opus", rate: 48000, slack: 960),
        Pair("mov", nil, probe: "aac", slack: 1024),
        Pair("mov", "pcm", probe: "pcm_s16le"),
        Pair("mov", "alac", probe: "alac"),
        Pair("mp4", nil, probe: "aac", slack: 1024),
        Pair("mp4", "alac", probe: "alac"),
        Pair("mp4", "mp3", probe: "mp3", slack: 1152),
        Pair("mp4", "opus", probe: "opus", rate: 48000, slack: 960),
        Pair("mkv", nil, probe: "aac", slack: 2048),
        Pair("mkv", "alac", probe: "alac"),
        Pair("mkv", "pcm", probe: "pcm_s16le"),
        Pair("mkv", "flac", probe: "flac"),
        Pair("mkv", "mp3", probe: "mp3", slack: 1152),
        Pair("mkv", "opus", probe: "opus", rate: 48000, slack: 960),
        Pair("mkv", "vorbis", probe: "vorbis", slack: 2048),
    ]

    /// Samples a decoder gets out of `path` (what a listener hears: encoder delay that the
    /// file declares is skipped).
    static func decodedSamples(_ path: String) throws -> Int {
        let (status, samples, _) = try runCapturingFiles("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-map", "0:a:0",
                                                                     "-ac", "1", "-f", "s16le", "-"])
        #expect(status == 0, "ffmpeg could not decode \(path)")
        return samples.count / 2
    }

    /// 2 s at rate 0.8 lasts 2.5 s: written with the codec asked for (or the extension's
    /// default), at 44.1 kHz, or at 48 kHz for Opus with a warning that says so.
    @Test(arguments: pairs)
    func everyPairWritesItsCodec(_ pair: Pair) throws {
        let output = try FixtureCache.shared.scratchFolder("stretch-format").appendingPathComponent("slow.\(pair.fileExtension)").path
        let codec = pair.codecOption.map { ["--audio-codec", $0] } ?? []
        let result = try Slomo.run(["stretch", try Self.tone44k, "--rate", "0.8", "--audio", "varispeed", "--progress", "none",
                                    "-o", output] + codec)
        #expect(result.status == 0, "\(result.standardError)")
        let probe = try FFprobe(output)
        #expect(probe.streams.count == 1)
        let stream = probe.stream("audio")
        #expect(stream?["codec_name"] as? String == pair.codecName)
        #expect((stream?["sample_rate"] as? String).flatMap { Int($0) } == pair.sampleRate)
        let expected = 2.5 * Double(pair.sampleRate)
        let samples = try Self.decodedSamples(output)
        print("stretch → \(pair.testDescription): \(samples) samples at \(pair.sampleRate) Hz (exact \(Int(expected)), slack \(pair.slack))")
        #expect(Double(samples) >= expected && Double(samples) <= expected + Double(pair.slack))
        #expect(result.standardError.contains("resampled from 44100 Hz to 48000 Hz") == (pair.sampleRate == 48000),
                "\(result.standardError)")
    }

    /// A codec the format cannot hold, an extension slomo does not write, and a movie container
    /// for a movie with video: exit 64, the error names what was asked and lists the pairs,
    /// and nothing is written.
    @Test(arguments: [
        (["--audio-codec", "aac", "-o", "$OUT/x.wav"], ".wav cannot hold aac"),
        (["--audio-codec", "flac", "-o", "$OUT/x.m4a"], ".m4a cannot hold flac"),
        (["--audio-codec", "vorbis", "-o", "$OUT/x.mp3"], ".mp3 cannot hold vorbis"),
        (["--audio-codec", "opus", "-o", "$OUT/x.mov"], ".mov cannot hold opus"),
        (["-o", "$OUT/x.aiff"], "x.aiff"),
    ])
    func contradictionsAreUsageErrors(_ arguments: [String], mentions: String) throws {
        let folder = try FixtureCache.shared.scratchFolder("stretch-contradiction")
        let result = try Slomo.run(["stretch", try Self.tone44k, "--rate", "0.8"]
                                   + arguments.map { $0.replacingOccurrences(of: "$OUT", with: folder.path) })
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains(mentions), "\(result.standardError)")
        #expect(result.standardError.contains(".wav pcm; .flac flac; .m4a aac (default) or alac; .mp3 mp3; .opus opus"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func movieContainerForAMovieWithVideoIsAUsageError() throws {
        let folder = try FixtureCache.shared.scratchFolder("stretch-movie-container")
        let result = try Slomo.run(["stretch", try Fixture.ntsc.path, "--rate", "0.5", "-o", folder.path + "/x.mov"])
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains("has video") && result.standardError.contains("slomo retime"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// Without -o the output is beside the input, with the extension of --audio-codec.
    @Test func defaultOutputNameFollowsTheCodec() throws {
        let folder = try FixtureCache.shared.scratchFolder("stretch-default-name")
        let input = folder.appendingPathComponent("voice.wav").path
        try FileManager.default.copyItem(atPath: try Self.tone44k, toPath: input)
        let result = try Slomo.run(["stretch", input, "--rate", "0.8", "--audio-codec", "vorbis", "-q"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["voice-slomo.ogg", "voice.wav"])
        #expect(try FFprobe(folder.appendingPathComponent("voice-slomo.ogg").path).stream("audio")?["codec_name"] as? String
                == "vorbis")
    }

    @Test func existingOutputIsKeptWithoutOverwrite() throws {
        let output = try FixtureCache.shared.scratchFolder("stretch-existing").appendingPathComponent("slow.opus").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: output))
        let refused = try Slomo.run(["stretch", try Self.tone44k, "--rate", "0.8", "-o", output])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("already exists"), "\(refused.standardError)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "keep me")
        let replaced = try Slomo.run(["stretch", try Self.tone44k, "--rate", "0.8", "-o", output, "--overwrite", "-q"])
        #expect(replaced.status == 0, "\(replaced.standardError)")
        #expect(try FFprobe(output).stream("audio")?["codec_name"] as? String == "opus")
    }

    /// The help (80 columns wide when not on a terminal) lists every format with its codecs,
    /// and its examples, the new formats' among them, are whole command lines, none broken.
    @Test func helpTellsTheFormats() throws {
        let help = try Slomo.run(["stretch", "--help"]).standardOutput
        for line in ["  .wav   pcm", "  .m4a   aac, alac", "  .mp3   mp3", "  .opus  opus", "  .ogg   vorbis, opus",
                     "  .mov   aac, alac, pcm"] {
            #expect(help.contains(line + "\n"), "\(line)")
        }
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "Examples:"))
        let examples = lines[(start + 1)...].prefix { !$0.isEmpty }
        print("stretch --help examples:\n" + examples.joined(separator: "\n"))
        #expect(examples.count >= 5)
        #expect(examples.allSatisfy { $0.hasPrefix("  slomo stretch ") && $0.contains(" -o ") })
        #expect(examples.contains { $0.hasSuffix("-o slow.mp3") } && examples.contains { $0.hasSuffix("-o slow.opus") })
    }
}
