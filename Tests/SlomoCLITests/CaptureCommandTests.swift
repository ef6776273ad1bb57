import Foundation
import SlomoTestSupport
import Testing

/// `slomo capture` end to end: the built binary records synthetic, screen and piped sources;
/// ffprobe and ffmpeg judge the files.
@Suite(.serialized) struct CaptureCommandTests {
    /// Every video packet's presentation time in seconds, in decoding order.
    static func videoTimes(_ path: String) throws -> [Double] {
        let result = try runChecked("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                "packet=pts_time", "-of", "csv=p=0", path])
        return result.standardOutput.split(separator: "\n").compactMap { Double($0) }
    }

    /// What `ffmpeg -v error -i FILE -f null -` prints: nothing for a file that decodes cleanly.
    /// `variableRate` keeps the file's own time base for the null sink, so that jittered
    /// wall-clock timestamps of a variable-rate source (x11grab) are not forced onto a 1/fps grid.
    static func decodeErrors(_ path: String, variableRate: Bool = false) throws -> String {
        let result = try runCommand("ffmpeg", ["-v", "error", "-i", path] + (variableRate ? ["-enc_time_base", "-1"] : [])
                                    + ["-f", "null", "-"])
        return result.standardError + (result.status == 0 ? "" : "exit \(result.status)")
    }

    static func finishedLine(_ stderr: String) throws -> [String: Any] {
        let line = try #require(stderr.split(separator: "\n").last { $0.contains("\"event\":\"finished\"") })
        return try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
    }

    /// 10 s of MJPEG at 240 fps (about 2 MB/s): a compressed source that is copied, cheap to
    /// record, that fills files and disks fast.
    static var mjpeg240: String {
        get throws {
            try FixtureCache.shared.path(for: "capture-mjpeg240", extension: "mov", arguments: [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=240:duration=10",
                "-c:v", "mjpeg", "-q:v", "4", "-pix_fmt", "yuvj420p"])
        }
    }

    @Test func testsrc720p240For10Seconds() throws {
        let folder = try FixtureCache.shared.scratchFolder("capture-240")
        let path = folder.appendingPathComponent("take.mov").path
        let (result, stolen) = try HostContention.measure {
            try Slomo.run(["capture", "--input", "testsrc:1280x720@240", "--duration", "10", "-o", path,
                           "--progress", "json"])
        }
        #expect(result.status == 0, "\(result.standardError)")
        let finished = try Self.finishedLine(result.standardError)
        let times = try Self.videoTimes(path)
        let dropped = finished["dropped"] as? Int ?? -1
        let intervals = zip(times.dropFirst(), times).map { $0 - $1 }
        let mean = intervals.reduce(0, +) / Double(max(1, intervals.count))
        print("720p240 10 s: \(times.count) frames written, \(dropped) dropped, mean interval \(mean * 1000) ms, "
              + "\(Int(stolen * 100)) % of the CPU stolen by the host, finished: \(finished)")
        // The bar holds on an idle 2-core machine (scripts/test runs the real-time tests alone):
        // libx264 ultrafast needs 3–3.6 ms of CPU a frame against a 4.17 ms frame interval and
        // runs frame threads; the test pattern is a pre-rendered cycle (0.3 ms a frame); the
        // whole capture uses 94 % of one core. With other builds running (load 2.3–2.5) it wrote
        // 2297–2400 frames, so do not run it beside other work. A virtual machine whose host
        // took half its CPU wrote 1987–2206 (old and new builds alike): not judged then.
        HostContention.judge(stolen: stolen) {
            #expect(times.count >= 2352, "at least 98 % of 2400 frames")
            #expect(abs(mean - 1.0 / 240) <= 0.02 / 240, "mean interval 4.167 ms ± 2 %")
        }
        #expect(times.count > 0)
        #expect(zip(times.dropFirst(), times).allSatisfy { $0 > $1 }, "strictly increasing")
        #expect(dropped == 2400 - times.count, "the drop count matches the missing frames")
        #expect(finished["received"] as? Int == 2400)
        let probe = try FFprobe(path)
        #expect(probe.stream("video")?["codec_name"] as? String == "h264")
        #expect(probe.stream("video")?["width"] as? Int == 1280)
    }

    @Test func durationLimitGivesExactFrameCount() throws {
        let folder = try FixtureCache.shared.scratchFolder("capture-duration")
        let path = folder.appendingPathComponent("take.mov").path
        let result = try Slomo.run(["capture", "--input", "testsrc:320x180@240", "--duration", "3", "-o", path, "--progress", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        let finished = try Self.finishedLine(result.standardError)
        let times = try Self.videoTimes(path)
        print("--duration 3: \(times.count) frames, \(finished)")
        #expect(abs(times.count - 720) <= 1 || times.count + (finished["dropped"] as? Int ?? 0) == 720)
        #expect(finished["reason"] as? String == "max-duration")
        #expect(finished["finishedSuccessfully"] as? Bool == true)
        #expect(result.standardOutput.contains("finished successfully"))
        #expect(try Self.decodeErrors(path).isEmpty)
    }

    @Test func capturedClipIsHighFrameRateAndRetimes() throws {
        let folder = try FixtureCache.shared.scratchFolder("capture-retime")
        let path = folder.appendingPathComponent("take.mov").path
        let captured = try Slomo.run(["capture", "--input", "testsrc:320x180@240", "--duration", "2", "-o", path, "-q"])
        #expect(captured.status == 0, "\(captured.standardError)")
        let inspected = try Slomo.run(["inspect", path, "--json"])
        #expect(inspected.status == 0)
        #expect(inspected.standardOutput.contains("\"highFrameRate\" : true"), "\(inspected.standardOutput)")
        let slow = folder.appendingPathComponent("slow.mov").path
        let retimed = try Slomo.run(["retime", path, "--section", "0.5-1x0.25", "-o", slow, "-q"])
        #expect(retimed.status == 0, "\(retimed.standardError)")
        let duration = Double(try FFprobe(slow).format["duration"] as? String ?? "") ?? 0
        #expect(abs(duration - 3.5) < 0.01, "2 s with 0.5 s slowed to 0.25x lasts 3.5 s")
    }

    @Test func sigkillLeavesAPlayableFile() throws {
        let folder = try FixtureCache.shared.scratchFolder("capture-kill")
        let path = folder.appendingPathComponent("take.mov").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Slomo.executable)
        process.arguments = ["capture", "--input", "testsrc:320x180@240", "--duration", "60", "--fragment", "1s", "-o", path, "-q"]
        try process.run()
        usleep(5_000_000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        let errors = try Self.decodeErrors(path)
        #expect(errors.isEmpty, "\(errors)")
        let times = try Self.videoTimes(path)
        print("SIGKILL at 5 s: \(times.count) frames, last at \(times.last ?? 0) s")
        #expect((times.last ?? 0) >= 3)
    }

    @Test func interruptFinalisesTheFile() throws {
        let folder = try FixtureCache.shared.scratchFolder("capture-interrupt")
        let path = folder.appendingPathComponent("take.mp4").path
        let recorder = try BackgroundCommand(try Slomo.executable,
                                             ["capture", "--input", "testsrc:320x180@120", "-o", path, "--progress", "json"])
        usleep(2_000_000)
        recorder.process.interrupt()
        let (status, stderr) = recorder.wait()
        #expect(status == 0, "\(stderr)")
        let finished = try Self.finishedLine(stderr)
        #expect(finished["reason"] as? String == "stopped")
        #expect(try Self.decodeErrors(path).isEmpty)
        #expect(try Self.videoTimes(path).count > 100)
        #expect(stderr.contains("\"event\":\"status\""))
    }

    @Test func maxSizeStopsWithinOneFragment() throws {
        let folder = try FixtureCache.shared.scratchFolder("capture-maxsize")
        let path = folder.appendingPathComponent("take.mov").path
        let limit = 2 * 1_048_576
        let result = try Slomo.run(["capture", "--input", "url:" + (try Self.mjpeg240), "--max-size", "2M", "--duration", "30",
                                    "--fragment", "0.5s", "-o", path, "--progress", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        let finished = try Self.finishedLine(result.standardError)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        print("--max-size 1M: \(size) bytes, \(finished)")
        #expect(finished["reason"] as? String == "max-size")
        #expect(finished["finishedSuccessfully"] as? Bool == true)
        #expect(size <= limit)
        #expect(size >= limit - 1_200_000, "stopped within one fragment (0.5 s, about 1 MB) of the limit")
        #expect(try Self.decodeErrors(path).isEmpty)
    }

    @Test(.enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func fullDiskStopsBeforeENOSPC() throws {
        let mountPoint = try FixtureCache.shared.scratchFolder("capture-full")
        try runChecked("mount", ["-t", "tmpfs", "-o", "size=3m", "tmpfs", mountPoint.path])
        defer { _ = try? runCommand("umount", [mountPoint.path]) }
        let path = mountPoint.path + "/take.mov"
        let result = try Slomo.run(["capture", "--input", "url:" + (try Self.mjpeg240), "--duration", "60", "--min-free", "256K",
                                    "--fragment", "0.5s", "-o", path, "--progress", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardError.contains("No space left"))
        #expect(result.standardOutput.contains("finished successfully"))
        let finished = try Self.finishedLine(result.standardError)
        print("full disk: \(finished)")
        #expect(finished["reason"] as? String == "min-free")
        #expect(try Self.decodeErrors(path).isEmpty)
        #expect(try Self.videoTimes(path).count > 10)
    }

    /// Issue 37, defect 5: a compressed stream with B-frames (x264's defaults) is copied with
    /// its decoding times rising and every frame kept, from a file and over a pipe; it failed
    /// at once with "write packet: Invalid argument".
    @Test func bFramesAreCopiedFromAFileAndAPipe() throws {
        let folder = try FixtureCache.shared.scratchFolder("capture-bframes")
        let source = try FixtureCache.shared.path(for: "capture-bframes120", extension: "mp4", arguments: [
            "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=120:duration=2", "-c:v", "libx264",
            "-preset", "ultrafast", "-bf", "3", "-g", "120", "-pix_fmt", "yuv420p"])
        let fromFile = folder.appendingPathComponent("file.mov").path
        let file = try Slomo.run(["capture", "--input", "url:" + source, "-o", fromFile, "-q"])
        #expect(file.status == 0, "\(file.standardError)")

        let fifo = folder.appendingPathComponent("feed").path
        let fromPipe = folder.appendingPathComponent("pipe.mov").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // MPEG-TS carries every packet's decoding time (NUT leaves it out for a stream's first packets).
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        writer.arguments = ["ffmpeg", "-v", "error", "-re", "-i", source, "-c", "copy", "-f", "mpegts", "-y", fifo]
        try writer.run()
        let pipe = try Slomo.run(["capture", "--input", "url:" + fifo, "-o", fromPipe, "-q"])
        writer.waitUntilExit()
        #expect(pipe.status == 0 || pipe.status == 3, "\(pipe.standardError)")

        for path in [fromFile, fromPipe] {
            let packets = try FFprobe.packets(path)
            print("\(URL(fileURLWithPath: path).lastPathComponent): \(packets.count) frames, \(Set(packets.map { $0.pts - $0.dts }).count) distinct reorder delays")
            #expect(packets.count == 240, "every frame kept: \(packets.count)")
            #expect(zip(packets, packets.dropFirst()).allSatisfy { $1.dts > $0.dts }, "decoding times rise strictly")
            #expect(packets.contains { $0.pts > $0.dts }, "the B-frames' reordering is kept")
            // A pipe's frames arrive on the session clock, not exactly 1/120 s apart (PITFALLS 34).
            #expect(try Self.decodeErrors(path, variableRate: true).isEmpty)
        }
    }

    @Test func sourceLossFinalisesAndIsReported() throws {
        let folder = try FixtureCache.shared.scratchFolder("capture-fifo")
        let fifo = folder.appendingPathComponent("feed").path
        let path = folder.appendingPathComponent("take.mov").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // A writer that streams MJPEG-in-NUT at 60 fps into the FIFO, killed after 2 s.
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        writer.arguments = ["ffmpeg", "-v", "error", "-re", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=60",
                            "-c:v", "mjpeg", "-q:v", "5", "-f", "nut", "-y", fifo]
        try writer.run()
        let recorder = try BackgroundCommand(try Slomo.executable,
                                             ["capture", "--input", "url:" + fifo, "-o", path, "--progress", "json"])
        usleep(2_500_000)
        writer.terminate()
        kill(writer.processIdentifier, SIGKILL)
        writer.waitUntilExit()
        let (status, stderr) = recorder.wait()
        #expect(status == 3, "\(stderr)")
        let finished = try Self.finishedLine(stderr)
        print("source loss: \(finished)")
        #expect(finished["reason"] as? String == "device-lost")
        #expect(finished["finishedSuccessfully"] as? Bool == true)
        #expect(stderr.contains("lost"))
        #expect(try Self.decodeErrors(path).isEmpty)
        let probe = try FFprobe(path)
        #expect(probe.stream("video")?["codec_name"] as? String == "mjpeg", "compressed video is copied")
        #expect(try Self.videoTimes(path).count > 30)
    }

    @Test(arguments: [
        (["--input", "v4l2:/dev/video-nope"], "no such device"),
        // Limits are the library's (checked once), worded with the option: issue 17.
        (["--input", "testsrc:1280x720@240", "--duration", "0"], "--duration 0: must be positive"),
        (["--input", "testsrc:1280x720@240", "--max-size", "10"], "--max-size 10: must be at least 256 KiB"),
        (["--input", "testsrc:1280x720@240", "--fragment", "0"], "--fragment 0: must be between 0.1 and 60 seconds"),
        (["--input", "testsrc:1280x720@240", "--scale", "9"], "--scale 9: must be between 0 and 4"),
        (["--input", "testsrc:1280x720@240", "--timeout", "0"], "--timeout 0: must be a positive number of seconds"),
        (["--input", "testsrc:1280x720@240", "--audio-codec", "opus"], "--audio-codec opus: recordings store sound as pcm or aac"),
        (["--input", "testsrc:1280x720@240", "--audio-codec", "mp9"], "--audio-codec expects one of pcm, aac"),
        (["--input", "webcam:0"], "unknown kind"),
        (["--input", "url:udp://127.0.0.1:9", "--timeout", "1"], "timed out"),
    ])
    func badInputIsAClearError(arguments: [String], mentions: String) throws {
        let folder = try FixtureCache.shared.scratchFolder("capture-bad")
        let path = folder.appendingPathComponent("take.mov").path
        let result = try Slomo.run(["capture"] + arguments + ["-o", path, "-q"])
        #expect(result.status != 0)
        #expect(result.standardError.lowercased().contains(mentions.lowercased()), "\(result.standardError)")
        #expect(!result.standardError.contains("Fatal error"))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// The library's hint for a missing camera, worded as the command that lists them.
    @Test func aMissingCameraPointsToDevices() throws {
        let folder = try FixtureCache.shared.scratchFolder("capture-no-camera")
        let result = try Slomo.run(["capture", "--input", "v4l2:/dev/video-nope", "-o", folder.appendingPathComponent("take.mov").path, "-q"])
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains("/dev/video-nope: no such device") && result.standardError.contains("(run `slomo devices` to list them)"),
                "\(result.standardError)")
    }

    @Test func missingFolderAndExistingFile() throws {
        let folder = try FixtureCache.shared.scratchFolder("capture-paths")
        let missing = try Slomo.run(["capture", "--input", "testsrc:160x120@30", "--duration", "1", "-o", folder.path + "/nope/take.mov"])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("does not exist"))
        let existing = folder.appendingPathComponent("take.mov").path
        _ = FileManager.default.createFile(atPath: existing, contents: Data("precious".utf8))
        let refused = try Slomo.run(["capture", "--input", "testsrc:160x120@30", "--duration", "1", "-o", existing])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("--overwrite"))
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "precious")
    }
}
