import Foundation
import SlomoBatch
import SlomoTestSupport
import Synchronization
import Testing

/// One long take exported in chunks and joined: the same frames as a single pass (FFV1, to the
/// bit), the same audio to the sample, exact 1/fps timestamps across every join, and with x264
/// pictures within 45 dB of the single pass; here and on a real Slurm (an array and a join that
/// waits for it).
@Suite(.serialized) struct ChunkedExportTests {
    /// 20 s of 1280x720 at 240 fps (H.264 with B-frames, a keyframe a second) with a tone.
    static var take: String {
        get throws { try take(named: "chunk-take", size: "1280x720", seconds: 20, keyframeInterval: 240) }
    }

    /// A take of `seconds` at 240 fps and `size`: H.264 with B-frames, a keyframe every
    /// `keyframeInterval` frames, with a 440 Hz tone in AAC.
    static func take(named name: String, size: String, seconds: Int, keyframeInterval: Int) throws -> String {
        try FixtureCache.shared.path(for: name, extension: "mov", arguments: [
            "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
            "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=240:duration=\(seconds)",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)", "-ac", "2",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-bf", "3", "-g", "\(keyframeInterval)",
            "-c:a", "aac", "-shortest",
        ])
    }

    /// A 0.1x section (interpolated frames, across chunk edges) and a ramped 0.25x one.
    static let sections = ["--section", "4-4.5x0.1", "--section", "10-12x0.25:ramp=0.5", "--cfr", "30"]

    /// FFV1 at 640x360 (lossless, so frames compare to the bit; smaller, so it is quick) with PCM audio.
    static let lossless = ["--codec", "ffv1", "--size", "640x360", "--audio-codec", "pcm"]

    private static let singlePassCache = Mutex<String?>(nil)

    /// The lossless single pass every chunked export is judged against, made once a test run.
    static func losslessSinglePass() throws -> String {
        try singlePassCache.withLock { cached in
            if let cached { return cached }
            let folder = try FixtureCache.shared.scratchFolder("chunks-single")
            try export(lossless + ["-o", "single.mkv"], in: folder)
            let path = folder.appendingPathComponent("single.mkv").path
            cached = path
            return path
        }
    }

    /// `slomo export` of the take with `arguments`, in `folder`; its wall time.
    @discardableResult
    static func export(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> Double {
        let started = Date()
        let result = try runCommand("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", folder.path, try Slomo.executable, "export", try take]
                                    + sections + arguments, environment: environment)
        try #require(result.status == 0, "\(arguments): \(result.standardError)")
        print("export \(arguments.joined(separator: " ")): \(String(format: "%.2f", Date().timeIntervalSince(started))) s; "
              + result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        return Date().timeIntervalSince(started)
    }

    /// Decoded video frames' framemd5 (timestamps and pictures), and the MD5 of every decoded
    /// audio sample in order (as 32-bit float; how PCM is cut into packets does not count).
    static func decoded(_ path: String) throws -> (video: [Substring], audio: String) {
        let video = try runChecked("ffmpeg", ["-v", "error", "-i", path, "-map", "0:v", "-f", "framemd5", "-"])
        let audio = try runChecked("ffmpeg", ["-v", "error", "-i", path, "-map", "0:a", "-c:a", "pcm_f32le", "-f", "md5", "-"])
        return (video.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("#") }, audio.standardOutput)
    }

    @Test func ffv1ChunksAreTheSinglePassToTheBitForOneThreeAndSevenChunks() throws {
        let folder = try FixtureCache.shared.scratchFolder("chunks-ffv1")
        let codec = Self.lossless
        let single = try Self.decoded(try Self.losslessSinglePass())
        print("single pass: \(single.video.count) frames, audio \(single.audio.trimmingCharacters(in: .whitespacesAndNewlines))")
        #expect(single.video.count > 800 && single.audio.hasPrefix("MD5="))
        for chunks in [1, 3, 7] {
            try Self.export(codec + ["--chunks", String(chunks), "-o", "chunks-\(chunks).mkv"], in: folder)
            let joined = try Self.decoded(folder.appendingPathComponent("chunks-\(chunks).mkv").path)
            #expect(joined.video.count == single.video.count, "\(chunks) chunks: \(joined.video.count) frames")
            let differing = zip(joined.video, single.video).enumerated().filter { $1.0 != $1.1 }.map(\.offset)
            #expect(differing.isEmpty, "\(chunks) chunks: frames \(differing.prefix(10)) differ from the single pass")
            #expect(joined.audio == single.audio, "\(chunks) chunks: the audio is not the single pass's to the sample")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("chunks-\(chunks).mkv.chunks").path),
                    "the run folder is removed after the join")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["chunks-1.mkv", "chunks-3.mkv", "chunks-7.mkv"])
    }

    @Test func x264ChunksKeepEveryFrameOnItsTimeAndCloseToTheSinglePass() throws {
        let folder = try FixtureCache.shared.scratchFolder("chunks-x264")
        let codec = ["--preset", "ultrafast"]
        try Self.export(codec + ["-o", "single.mp4"], in: folder)
        try Self.export(codec + ["--chunks", "3", "--keep-chunks", "-o", "chunks.mp4"], in: folder)
        let single = folder.appendingPathComponent("single.mp4").path, joined = folder.appendingPathComponent("chunks.mp4").path
        let packets = try FFprobe.packets(joined)
        let reference = try FFprobe.packets(single)
        #expect(packets.count == reference.count, "\(packets.count) frames against \(reference.count)")
        let times = packets.map(\.pts).sorted()
        let steps = Set(zip(times, times.dropFirst()).map { $1 - $0 })
        let base = try FFprobe(joined).stream("video")?["time_base"] as? String
        print("x264 chunks: \(packets.count) frames, pts steps \(steps) in \(base ?? "?")")
        #expect(steps.count == 1, "every interval is exactly 1/30 s")
        #expect(Set(zip(packets, packets.dropFirst()).map { $1.dts > $0.dts }) == [true], "DTS rise strictly across the joins")
        let psnr = try Self.lowestPSNR(joined, against: single)
        print("x264 chunks: lowest per-frame PSNR against the single pass \(String(format: "%.2f", psnr)) dB")
        #expect(psnr >= 45)
        let (joinedAudio, singleAudio) = (try Self.decoded(joined).audio, try Self.decoded(single).audio)
        #expect(joinedAudio == singleAudio, "AAC: the same samples as the single pass (no gap, no offset)")
        let pieces = try FileManager.default.contentsOfDirectory(atPath: joined + ".chunks/pieces").sorted()
        #expect(pieces.filter { $0.hasPrefix("piece-") }.count == 3 && pieces.contains("audio.nut"),
                "--keep-chunks keeps the pieces and the rendered audio: \(pieces)")
        // Run again: the pieces are kept, only the (existing) output would be joined again.
        let again = try runCommand("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", folder.path, try Slomo.executable, "export", try Self.take]
                                   + Self.sections + codec + ["--chunks", "3", "--keep-chunks", "-o", "chunks.mp4"])
        #expect(again.status == 1 && again.standardError.contains("already exists"), "the output is kept without --overwrite")
    }

    /// The lowest per-frame PSNR (all planes) of `path` against `reference`.
    static func lowestPSNR(_ path: String, against reference: String) throws -> Double {
        let stats = FileManager.default.temporaryDirectory.appendingPathComponent("psnr-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: stats) }
        try runChecked("ffmpeg", ["-v", "error", "-i", path, "-i", reference, "-lavfi", "[0:v][1:v]psnr=stats_file=\(stats)", "-f", "null", "-"])
        let values = try String(contentsOfFile: stats, encoding: .utf8).split(separator: "\n").compactMap { line -> Double? in
            guard let field = line.split(separator: " ").first(where: { $0.hasPrefix("psnr_avg:") }) else { return nil }
            let value = field.dropFirst("psnr_avg:".count)
            return value == "inf" ? .infinity : Double(value)
        }
        return values.min() ?? 0
    }
}

extension SlurmEngineTests {
    @Test func chunksRunAsAnArrayAndAJoinThatWaitsForIt() throws {
        let cluster = try SlurmCluster()
        let folder = try FixtureCache.shared.scratchFolder("chunks-slurm")
        try ChunkedExportTests.export(ChunkedExportTests.lossless + ["--chunks", "3", "--engine", "slurm", "--wait", "--progress", "none",
                                                                     "-o", "slurm.mkv"], in: folder, environment: cluster.environment)
        let single = try ChunkedExportTests.decoded(try ChunkedExportTests.losslessSinglePass())
        let joined = try ChunkedExportTests.decoded(folder.appendingPathComponent("slurm.mkv").path)
        #expect(joined.video == single.video && joined.audio == single.audio)
        let scripts = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("slurm.mkv.chunks/slurm").path)
            .filter { $0.hasSuffix(".sh") }.sorted()
        #expect(scripts == ["array-1.sh", "array-2.sh"], "\(scripts)")
        let join = try String(contentsOfFile: folder.appendingPathComponent("slurm.mkv.chunks/slurm/array-2.sh").path, encoding: .utf8)
        let array = try #require(SlurmEngine.submissions(in: RunFolder(folder.appendingPathComponent("slurm.mkv.chunks").path)).first?.jobId)
        #expect(join.contains("#SBATCH --dependency=afterany:\(array)_0:\(array)_1:\(array)_2:\(array)_3\n") && join.contains("#SBATCH --array=4"),
                "the join after the tasks of 3 chunks and the audio: \(join)")
    }
}
