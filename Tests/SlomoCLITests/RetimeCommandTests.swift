import Foundation
import SlomoTestSupport
import Testing

/// `slomo retime` end to end: outputs, defaults, and every bad input of the passthrough issue.
@Suite struct RetimeCommandTests {
    /// Runs retime with `arguments` and returns the result and the folder the output goes to.
    static func retime(_ arguments: [String], input: String? = nil) throws -> (CommandResult, URL) {
        let folder = try FixtureCache.shared.scratchFolder("retime")
        let source = try input ?? Fixture.flashAndBeep.path
        let result = try Slomo.run(["retime", source] + arguments.map { $0.replacingOccurrences(of: "$OUT", with: folder.path) })
        return (result, folder)
    }

    /// The files in a folder, hidden ones included (temporary files start with a dot).
    static func contents(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func writesTheOutputAndSaysWhat() throws {
        let (result, folder) = try Self.retime(["--section", "2-4x0.25", "-o", "$OUT/slow.mov", "--audio", "varispeed"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("16.000 s"))
        #expect(try Self.contents(folder) == ["slow.mov"])
    }

    @Test func sparseSourceFramesInPassthroughAreSaid() throws {
        let (result, _) = try Self.retime(["--section", "2-2.5x0.04", "--section", "4-6x0.5", "-o", "$OUT/slow.mov",
                                           "--audio", "varispeed"])
        #expect(result.status == 0, "\(result.standardError)")
        let warnings = result.standardError.split(separator: "\n").filter { $0.contains("source frames a second") }
        #expect(warnings.count == 1, "\(result.standardError)")
        #expect(warnings.first?.contains("section '2-2.5x0.04' shows 9.6 source frames a second in passthrough") == true)
        #expect(warnings.first?.contains("--cfr 30 --frames interpolate") == true)
    }

    @Test func defaultOutputIsBesideTheInput() throws {
        let folder = try FixtureCache.shared.scratchFolder("retime-default")
        let input = folder.appendingPathComponent("clip.mp4").path
        try FileManager.default.copyItem(atPath: try Fixture.videoOnly.path, toPath: input)
        let result = try Slomo.run(["retime", input, "--section", "0.5-1x0.5", "--quiet"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(try Self.contents(folder) == ["clip-slomo.mp4", "clip.mp4"])
        // Issue 16: a CFR export of the same clip gets its own default name, not the retime's.
        let export = try Slomo.run(["export", input, "--section", "0.5-1x0.5", "--cfr", "30", "--quiet"])
        #expect(export.status == 0, "\(export.standardError)")
        #expect(try Self.contents(folder) == ["clip-slomo-30fps.mp4", "clip-slomo.mp4", "clip.mp4"])
    }

    /// Issue 16: a file without sound says "no audio", and plans name no algorithm for it.
    @Test func videoWithoutSoundSaysNoAudio() throws {
        let folder = try FixtureCache.shared.scratchFolder("retime-no-audio")
        let output = folder.appendingPathComponent("out.mp4").path
        let result = try Slomo.run(["retime", try Fixture.videoOnly.path, "--section", "0.5-1x0.5", "-o", output, "--overwrite"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasSuffix("video packets copied, no audio\n"), "\(result.standardOutput)")
        let dryRun = try Slomo.run(["retime", try Fixture.videoOnly.path, "--section", "0.5-1x0.5", "--dry-run", "-o", output,
                                    "--overwrite"])
        #expect(dryRun.standardOutput.contains("passthrough: video copied, no audio"), "\(dryRun.standardOutput)")
        let plan = try Slomo.run(["plan", try Fixture.videoOnly.path, "--section", "0.5-1x0.5", "--json"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(plan.standardOutput.utf8)) as? [String: Any])
        #expect((root["segments"] as? [[String: Any]])?.allSatisfy { $0["audio"] == nil } == true)
    }

    /// A movie's 44.1 kHz sound encoded as Opus is resampled to 48 kHz, and the retime says so.
    @Test func resamplingForTheCodecIsSaid() throws {
        let folder = try FixtureCache.shared.scratchFolder("retime-resample")
        let input = folder.appendingPathComponent("s44.mov").path
        try runChecked("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30:duration=2",
                                  "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=2", "-c:v", "libx264",
                                  "-preset", "ultrafast", "-c:a", "aac", "-shortest", input])
        let output = folder.appendingPathComponent("out.mp4").path
        let result = try Slomo.run(["retime", input, "--section", "0.5-1x0.5", "--audio-codec", "opus", "-o", output, "--overwrite"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("warning: audio: resampled from 44100 Hz to 48000 Hz"), "\(result.standardError)")
        #expect(try FFprobe(output).stream("audio")?["sample_rate"] as? String == "48000")
    }

    /// Issue 16: retiming a sound file points to `stretch` instead of writing a video-less movie.
    @Test func soundAlonePointsToStretch() throws {
        let folder = try FixtureCache.shared.scratchFolder("retime-sound")
        let result = try Slomo.run(["retime", try Fixture.audioOnly.path, "--section", "0.5-1x0.5", "-o",
                                    folder.appendingPathComponent("out.mov").path])
        #expect(result.status == 64)
        #expect(result.standardError.contains("has no video") && result.standardError.contains("slomo stretch"))
        #expect(try Self.contents(folder).isEmpty)
    }

    @Test func jsonProgressIsOneObjectALine() throws {
        let (result, _) = try Self.retime(["--section", "2-4x0.25", "-o", "$OUT/p.mov", "--progress", "json", "--audio", "varispeed"])
        #expect(result.status == 0)
        let objects = try jsonLines(result.standardError)
        #expect(objects.first?["event"] as? String == "start" && objects.last?["event"] as? String == "done")
        let progress = objects.filter { $0["event"] as? String == "progress" }
        #expect(progress.count >= 2)
        #expect(progress.allSatisfy { $0["fraction"] is Double })
        #expect(progress.last?["fraction"] as? Double == 1)
    }

    /// Each bad input: exit 1, one line naming the problem, and no file at the output path.
    @Test(arguments: [
        (["--section", "8-12x0.5"], "past the clip's end at 10 s"),
        (["--section", "2-4x0.5", "--section", "3-5x0.5"], "overlap"),
        (["--section", "2-4x0.25", "--audio", "low-latency"], "low-latency"),
        (["--section", "2-4x0"], "rate"),
        (["--section", "4-2x0.5"], "before"),
        (["--section", "2-4x0.25", "--audio", "warp"], "unknown audio algorithm"),
        (["--section", "2-4x0.25:ramp=0.3:ease=bouncy"], "unknown ease 'bouncy'"),
        (["--freeze", "12:2"], "freeze '12:2': holds the frame at 12 s, outside the clip's 0–10 s"),
        (["--section", "2-4x0.5", "--freeze", "3:2"], "freeze '3:2': falls inside section '2-4x0.5'"),
        (["--freeze", "3:-1"], "must last longer than 0 s"),
        (["--freeze", "3:0"], "must last longer than 0 s"),
        (["--section", "2-4x0.25:ease=smooth"], "needs a ramp"),
        (["--section", "1-2x0.5:ramp-out=0.3:ease=in", "--section", "2-3x2:ramp-in=0.3:ease=out"], "eases it differently"),
    ])
    func badSectionsAreClearErrors(_ arguments: [String], mentions: String) throws {
        let (result, folder) = try Self.retime(arguments + ["-o", "$OUT/out.mov"])
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.lowercased().contains(mentions), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(try Self.contents(folder).isEmpty)
    }

    @Test func unreadableInput() throws {
        let folder = try FixtureCache.shared.scratchFolder("retime-bad")
        let input = try BadInput.randomBytes.make(in: folder)
        let result = try Slomo.run(["retime", input, "--section", "1-2x0.5", "-o", folder.path + "/out.mov"])
        #expect(result.status == 1)
        #expect(result.standardError.contains(input))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out.mov"))
    }

    @Test func outputInAMissingFolder() throws {
        let (result, folder) = try Self.retime(["--section", "2-4x0.5", "-o", "$OUT/missing/out.mov"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("does not exist"))
        #expect(try Self.contents(folder).isEmpty)
    }

    @Test func existingOutputNeedsOverwrite() throws {
        let folder = try FixtureCache.shared.scratchFolder("retime-exists")
        let output = folder.appendingPathComponent("out.mov").path
        _ = FileManager.default.createFile(atPath: output, contents: Data("precious".utf8))
        let refused = try Slomo.run(["retime", try Fixture.videoOnly.path, "--section", "0.5-1x0.5", "-o", output])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("--overwrite"))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "precious")
        let replaced = try Slomo.run(["retime", try Fixture.videoOnly.path, "--section", "0.5-1x0.5", "-o", output, "--overwrite", "-q"])
        #expect(replaced.status == 0)
        #expect(try MediaProbe.isMovie(output))
        #expect(try Self.contents(folder) == ["out.mov"])
    }

    @Test func inputAsOutputIsRefused() throws {
        let folder = try FixtureCache.shared.scratchFolder("retime-self")
        let input = folder.appendingPathComponent("clip.mp4").path
        try FileManager.default.copyItem(atPath: try Fixture.videoOnly.path, toPath: input)
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        let result = try Slomo.run(["retime", input, "--section", "0.5-1x0.5", "-o", input, "--overwrite"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("is the input"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
        #expect(try Self.contents(folder) == ["clip.mp4"])
    }

    @Test(.enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func fullDiskLeavesNothingBehind() throws {
        let mountPoint = try FixtureCache.shared.scratchFolder("retime-full")
        try runChecked("mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", mountPoint.path])
        defer { _ = try? runCommand("umount", [mountPoint.path]) }
        let result = try Slomo.run(["retime", try Fixture.hfr240.path, "--section", "2-4x0.25", "-o", mountPoint.path + "/out.mov"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("No space left on device"))
        #expect(try Self.contents(mountPoint).isEmpty)
    }

    @Test func interruptLeavesNothingBehind() throws {
        let folder = try FixtureCache.shared.scratchFolder("retime-interrupt")
        try expectInterruptLeavesNothing(["retime", try Fixture.hfr240.path, "--section", "0-10x0.25", "--audio", "spectral",
                                          "-o", folder.path + "/out.mov"], in: folder)
    }

    /// Issue 16, item 13: killed with SIGKILL at any moment (seeded delays from start-up to
    /// the end), an export leaves nothing in its folder: its output has no name until done.
    @Test func killedExportsLeaveNoPartialFiles() throws {
        let folder = try FixtureCache.shared.scratchFolder("retime-sigkill")
        let slomo = try Slomo.executable
        for (index, delay) in [0.05, 0.2, 0.45, 0.8, 1.2].enumerated() {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: slomo)
            process.arguments = ["retime", try Fixture.hfr240.path, "--section", "0-10x0.25", "-o",
                                 folder.appendingPathComponent("out\(index).mov").path, "--quiet"]
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(left.isEmpty || (process.terminationReason == .exit && left == ["out\(index).mov"]),
                    "killed after \(delay) s, the folder holds \(left)")
            for name in left { try FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        }
    }

    @Test func terminateExits143LeavingNothing() throws {
        let folder = try FixtureCache.shared.scratchFolder("retime-terminate")
        try expectInterruptLeavesNothing(["retime", try Fixture.hfr240.path, "--section", "0-10x0.25", "--audio", "spectral",
                                          "-o", folder.path + "/out.mov"], in: folder, signal: SIGTERM)
    }

    /// Issue 16: a dry run checks what the real run checks before writing: an existing output
    /// without --overwrite, and an algorithm that cannot play a section's rate.
    @Test func dryRunRefusesWhatTheRunRefuses() throws {
        let folder = try FixtureCache.shared.scratchFolder("retime-dry-run")
        let existing = folder.appendingPathComponent("slow.mov").path
        #expect(FileManager.default.createFile(atPath: existing, contents: Data("keep".utf8)))
        let exists = try Slomo.run(["retime", try Fixture.hfr240.path, "--section", "2-4x0.25", "-o", existing, "--dry-run"])
        #expect(exists.status == 1)
        #expect(exists.standardError.contains("already exists (use --overwrite to replace it)"), "\(exists.standardError)")
        #expect(!exists.standardOutput.contains("would write"))
        let lowLatency = try Slomo.run(["retime", try Fixture.hfr240.path, "--section", "2-4x0.25", "--audio", "low-latency",
                                        "--dry-run"])
        #expect(lowLatency.status == 64)
        #expect(lowLatency.standardError.contains("low-latency algorithm's range 0.5–2; use --audio spectral"),
                "\(lowLatency.standardError)")
        let timeline = try Slomo.run(["retime", try Fixture.hfr240.path, "--section", "2-4x0.25", "--dry-run",
                                      "--timeline", existing])
        #expect(timeline.status == 64 && timeline.standardError.contains("--timeline must end in"))
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep")
    }
}

/// Small ffprobe checks for CLI tests.
enum MediaProbe {
    /// True when ffprobe reads a video stream from the file.
    static func isMovie(_ path: String) throws -> Bool { try FFprobe(path).stream("video") != nil }
}

/// Issue 37, defect 1: `retime` takes an edit script, as its help says: a passthrough script
/// retimes; a constant-frame-rate one is sent to `export` (or given --cfr).
@Suite struct RetimeEditScriptTests {
    /// `edit.yaml` in `folder`: the flash-and-beep clip with `clip` lines added to it, and `output`.
    static func script(in folder: URL, clip: String = "", output: String) throws -> String {
        let script = folder.appendingPathComponent("edit.yaml").path
        try "slomo: 1\nclips:\n  - source: \(try Fixture.flashAndBeep.path)\n\(clip)output: \(output)\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        return script
    }

    @Test func aPassthroughScriptRetimes() throws {
        let folder = try FixtureCache.shared.scratchFolder("retime-script")
        let script = try Self.script(in: folder, clip: "    sections: [\"2-4x0.25\"]\n", output: "{audio: {algorithm: varispeed}}")
        let result = try Slomo.run(["retime", script, "-o", folder.appendingPathComponent("out.mov").path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("16.000 s") && result.standardOutput.contains("varispeed"), "\(result.standardOutput)")
        let packets = try FFprobe.packets(folder.appendingPathComponent("out.mov").path)
        #expect(packets.count == 2400, "every video packet copied")
    }

    @Test func aConstantFrameRateScriptIsSentToExport() throws {
        let folder = try FixtureCache.shared.scratchFolder("retime-cfr-script")
        let script = try Self.script(in: folder, output: "{mode: cfr, fps: 30}")
        let result = try Slomo.run(["retime", script, "-o", folder.appendingPathComponent("out.mov").path])
        #expect(result.status == 64 && result.standardError.contains("slomo export"), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["edit.yaml"])
    }
}

/// Issue 37, defect 5: a codec the output's container cannot hold is a usage error naming both,
/// before anything is written (it was "write header: Invalid argument").
@Suite struct RetimeContainerTests {
    @Test(arguments: [false, true])
    func msmpeg4IntoMP4IsAUsageError(dryRun: Bool) throws {
        let folder = try FixtureCache.shared.scratchFolder("retime-msmpeg4")
        let avi = try FixtureCache.shared.path(for: "msmpeg4v3", extension: "avi", arguments: [
            "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=2",
            "-c:v", "msmpeg4v3"])
        let result = try Slomo.run(["retime", avi, "--section", "0.5-1x0.5", "-o", folder.appendingPathComponent("v.mp4").path]
                                   + (dryRun ? ["--dry-run"] : []))
        #expect(result.status == 64)
        #expect(result.standardError.contains(".mp4 cannot hold msmpeg4v3") && result.standardError.contains(".mov"), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}

/// `--dry-run` and `--save-script`: the plan without output, and the equivalent edit script.
@Suite struct RetimePlanningTests {
    @Test func dryRunPrintsThePlanAndWritesNothing() throws {
        let (result, folder) = try RetimeCommandTests.retime(["--section", "2-4x0.25", "-o", "$OUT/out.mov",
                                                              "--save-script", "$OUT/edit.yaml", "--dry-run"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("total output duration: 16.000 s"))
        #expect(result.standardOutput.contains("60.000"))
        #expect(try RetimeCommandTests.contents(folder).isEmpty)
    }

    @Test func savedScriptPlansTheSameMap() throws {
        let (result, folder) = try RetimeCommandTests.retime(["--section", "2-4x0.25:ramp=0.5:ease=smooth", "--section", "6-8x2",
                                                              "--freeze", "5:1:audio=freeze",
                                                              "-o", "$OUT/out.mov", "--save-script", "$OUT/edit.yaml", "-q",
                                                              "--audio", "varispeed"])
        #expect(result.status == 0, "\(result.standardError)")
        let script = folder.appendingPathComponent("edit.yaml").path
        let fromScript = try Slomo.run(["plan", script, "--json"])
        let fromMovie = try Slomo.run(["plan", try Fixture.flashAndBeep.path, "--section", "2-4x0.25:ramp=0.5:ease=smooth",
                                       "--section", "6-8x2", "--freeze", "5:1:audio=freeze", "--json"])
        #expect(fromScript.status == 0 && fromMovie.status == 0)
        let scriptPlan = try JSONSerialization.jsonObject(with: Data(fromScript.standardOutput.utf8)) as? [String: Any]
        let moviePlan = try JSONSerialization.jsonObject(with: Data(fromMovie.standardOutput.utf8)) as? [String: Any]
        #expect(JSONTime.exact(scriptPlan?["outputDuration"]) == JSONTime.exact(moviePlan?["outputDuration"]))
        #expect((scriptPlan?["segments"] as? [Any])?.count == (moviePlan?["segments"] as? [Any])?.count)
        // The same segments, eased ramp and hold included (the script keeps --audio varispeed; plan's default is spectral).
        func timing(_ plan: [String: Any]?) -> NSArray {
            NSArray(array: (plan?["segments"] as? [[String: Any]] ?? []).map { $0.filter { $0.key != "audio" } })
        }
        #expect(timing(scriptPlan) == timing(moviePlan))
        #expect(try String(contentsOfFile: script, encoding: .utf8).contains("algorithm: varispeed"))
    }

    /// Issue 16, defect 1: `--save-script` writes the source relative to the script, so a
    /// folder holding both can move, and the script plans from any working directory.
    @Test func savedScriptNamesItsSourceRelatively() throws {
        let folder = try FixtureCache.shared.scratchFolder("retime-save-relative")
        let media = folder.appendingPathComponent("media"), scripts = folder.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Fixture.flashAndBeep.path, toPath: media.appendingPathComponent("clip.mov").path)
        let result = try runCommand("/bin/sh", ["-c", "cd '\(media.path)' && '\(try Slomo.executable)' retime clip.mov "
                                                + "--section 2-4x0.25 --save-script ../scripts/edit.yaml -o out.mov -q"])
        #expect(result.status == 0, "\(result.standardError)")
        let text = try String(contentsOf: scripts.appendingPathComponent("edit.yaml"), encoding: .utf8)
        #expect(text.contains("source: ../media/clip.mov"), "\(text)")
        let moved = folder.deletingLastPathComponent().appendingPathComponent("moved-\(UUID().uuidString.prefix(6))")
        try FileManager.default.moveItem(at: folder, to: moved)
        defer { try? FileManager.default.removeItem(at: moved) }
        let plan = try Slomo.run(["plan", moved.appendingPathComponent("scripts/edit.yaml").path])
        #expect(plan.status == 0, "\(plan.standardError)")
        #expect(plan.standardOutput.contains("total output duration: 16.000 s"))
    }
}
