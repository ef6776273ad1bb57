import Foundation
import SlomoTestSupport
import Testing

/// `slomo export` and `slomo retime --cfr` end to end: outputs, dry runs, edit scripts, and
/// every bad input of the CFR issue (exit 1, one line, nothing written).
@Suite struct ExportCommandTests {
    static func export(_ arguments: [String], command: String = "export", input: String? = nil) throws -> (CommandResult, URL) {
        let folder = try FixtureCache.shared.scratchFolder("export")
        let source = try input ?? Fixture.flashAndBeep.path
        let result = try Slomo.run([command, source] + arguments.map { $0.replacingOccurrences(of: "$OUT", with: folder.path) })
        return (result, folder)
    }

    static func contents(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func exportWritesAConstantFrameRateMovie() throws {
        let (result, folder) = try Self.export(["--section", "2-4x0.25", "--cfr", "30", "--preset", "ultrafast",
                                                "--audio", "varispeed", "-o", "$OUT/out.mp4"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("16.000 s, 480 frames at 30 fps (h264)"), "\(result.standardOutput)")
        let video = try #require(try FFprobe(folder.appendingPathComponent("out.mp4").path).stream("video"))
        #expect(video["r_frame_rate"] as? String == "30/1")
        #expect(try Self.contents(folder) == ["out.mp4"])
    }

    /// The library says what to do about a sound file as data (a hint); the command line words
    /// it as the command that does it.
    @Test func soundAloneAtAConstantFrameRatePointsToStretch() throws {
        let folder = try FixtureCache.shared.scratchFolder("export-sound")
        let result = try Slomo.run(["export", try Fixture.audioOnly.path, "--cfr", "30", "-o",
                                    folder.appendingPathComponent("out.mp4").path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("has no video stream to render (use `slomo stretch` for audio)"), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func jsonProgressNamesTheWork() throws {
        let (result, _) = try Self.export(["--section", "2-4x0.25", "--cfr", "30", "--preset", "ultrafast", "--audio", "varispeed",
                                           "-o", "$OUT/p.mp4", "--progress", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        let all = result.standardError.split(separator: "\n")
        #expect(all.first?.contains("\"event\":\"start\"") == true && all.last?.contains("\"event\":\"done\"") == true)
        let lines = all.filter { $0.contains("\"event\":\"progress\"") }
        #expect(lines.count >= 2)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["fraction"] is Double)
            #expect((object?["phase"] as? String)?.contains("rendering 30 fps (nearest), encoding h264") == true)
        }
        #expect(lines.last?.contains("\"fraction\":1") == true)
        #expect(lines.last?.contains("\"videoFrames\":480") == true)
    }

    @Test func retimeTakesCFRToo() throws {
        let (result, folder) = try Self.export(["--section", "2-4x0.25", "--cfr", "29.97", "--codec", "hevc", "--preset", "ultrafast",
                                                "--audio", "varispeed", "-o", "$OUT/out.mov", "-q"], command: "retime")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        let video = try #require(try FFprobe(folder.appendingPathComponent("out.mov").path).stream("video"))
        #expect(video["codec_name"] as? String == "hevc")
        #expect(video["avg_frame_rate"] as? String == "30000/1001")
    }

    @Test(arguments: ["source", "29.97"])
    func anNTSCRateAsTypedIsTheExactFraction(typed: String) throws {
        let (result, folder) = try Self.export(["--section", "0.5-1x0.5", "--cfr", typed, "--preset", "ultrafast",
                                                "--audio", "varispeed", "-o", "$OUT/out.mp4"], input: try Fixture.ntsc.path)
        #expect(result.status == 0, "\(result.standardError)")
        let video = try #require(try FFprobe(folder.appendingPathComponent("out.mp4").path).stream("video"))
        #expect(video["r_frame_rate"] as? String == "30000/1001")
        #expect(video["avg_frame_rate"] as? String == "30000/1001")
    }

    @Test func dryRunShowsFramesAndChoicesAndWritesNothing() throws {
        let (result, folder) = try Self.export(["--section", "2-4x0.25", "--section", "5-6x0.1", "--cfr", "30", "-o", "$OUT/out.mp4",
                                                "--dry-run"])
        #expect(result.status == 0, "\(result.standardError)")
        let text = result.standardOutput
        #expect(text.contains("frame choice per segment:"))
        #expect(text.contains("2  nearest  (effective 60.000 fps, 240 frames)"), "\(text)")
        #expect(text.contains("4  interpolate  (effective 24.000 fps, 300 frames)  optical flow (fast)"), "\(text)")
        #expect(text.contains("total output duration: 25.000 s, 750 frames at 30 fps"), "\(text)")
        #expect(try Self.contents(folder).isEmpty)
    }

    @Test func editScriptInput() throws {
        let folder = try FixtureCache.shared.scratchFolder("export-script")
        let script = folder.appendingPathComponent("edit.yaml").path
        try """
            slomo: 1
            clips:
              - source: \(try Fixture.flashAndBeep.path)
                end: 3
                sections:
                  - {start: 1, end: 2, rate: 0.5, frames: blend}
              - source: \(try Fixture.longFlashAndBeep.path)
                start: 5
                end: 6
            output:
              mode: cfr
              fps: 25
              codec: h264
            """.write(toFile: script, atomically: true, encoding: .utf8)
        let result = try Slomo.run(["export", script, "--preset", "ultrafast", "-q"])
        #expect(result.status == 0, "\(result.standardError)")
        let output = folder.appendingPathComponent("edit.mp4").path
        let video = try #require(try FFprobe(output).stream("video"))
        #expect(video["avg_frame_rate"] as? String == "25/1")
        #expect(try FFprobe.packets(output).count == 125)    // 4 s + 1 s at 25 fps
        // Both clips' audio, joined: one track exactly as long as the video.
        let probe = try FFprobe(output)
        #expect(probe.streams.filter { $0["codec_type"] as? String == "audio" }.count == 1)
        #expect(probe.stream("audio")?["duration_ts"] as? Int == 240_000, "\(probe.stream("audio") ?? [:])")
    }

    /// Issue 17: `slomo export SCRIPT` is the export the library reads from the script's
    /// `output:` (`OutputSettings.exportSettings()`): with neither a mode nor a frame rate, a
    /// passthrough retime; a bad value there is the script's, named by its place.
    @Test func aScriptExportsAsTheLibraryReadsIt() throws {
        let folder = try FixtureCache.shared.scratchFolder("export-script-defaults")
        let source = try Fixture.flashAndBeep.path
        let script = folder.appendingPathComponent("edit.yaml").path
        try "slomo: 1\nclips:\n  - source: \(source)\n    sections: [\"2-4x0.5\"]\n".write(toFile: script, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("out.mov").path
        let result = try Slomo.run(["export", script, "-o", output, "-q"])
        #expect(result.status == 0, "\(result.standardError)")
        // Passthrough: every one of the source's packets, copied, 2 s longer.
        #expect(try FFprobe.packets(output).count == FFprobe.packets(source).count)
        #expect(try FFprobe(output).stream("video")?["codec_name"] as? String == FFprobe(source).stream("video")?["codec_name"] as? String)
        let lengths = try [output, source].map { try #require(try FFprobe($0).stream("video")?["duration"] as? String).flatMap(Double.init) }
        #expect(lengths[0].map { abs($0 - (lengths[1] ?? 0) - 2) < 0.01 } == true, "\(lengths)")

        // Passthrough cannot cut copied packets: a trimmed clip is refused, not copied whole.
        try "slomo: 1\nclips:\n  - source: \(source)\n    end: 3\n".write(toFile: script, atomically: true, encoding: .utf8)
        let trimmed = try Slomo.run(["export", script, "-o", output, "--overwrite"])
        #expect(trimmed.status == 64)   // a plan passthrough cannot make, like two clips
        #expect(trimmed.standardError.contains("trimmed") && trimmed.standardError.contains("constant frame rate"), "\(trimmed.standardError)")

        try "slomo: 1\nclips:\n  - source: \(source)\noutput:\n  fps: 30\n  audio:\n    codec: wav\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        let bad = try Slomo.run(["export", script, "--dry-run"])
        #expect(bad.status == 1)
        #expect(bad.standardError.contains("output.audio.codec") && !bad.standardError.contains("--audio-codec"), "\(bad.standardError)")
    }

    /// A section typed on the command line that is wrong is a usage mistake (64); the same text
    /// in an edit script is the file's content (1), named by its place in the script.
    @Test func aBadSectionIsUsageWhenTypedAndAFailureInAScript() throws {
        let folder = try FixtureCache.shared.scratchFolder("export-bad-section")
        let source = try Fixture.flashAndBeep.path
        let typed = try Slomo.run(["export", source, "--section", "2-1x0.5", "--cfr", "30", "--dry-run"])
        #expect(typed.status == 64)
        #expect(typed.standardError.contains("section '2-1x0.5'"), "\(typed.standardError)")
        let script = folder.appendingPathComponent("edit.yaml").path
        try "slomo: 1\nclips:\n  - source: \(source)\n    sections: [\"2-1x0.5\"]\n".write(toFile: script, atomically: true, encoding: .utf8)
        let inScript = try Slomo.run(["export", script, "--cfr", "30", "--dry-run"])
        #expect(inScript.status == 1)
        #expect(inScript.standardError.contains("clips[0].sections[0]: section '2-1x0.5'"), "\(inScript.standardError)")
        #expect(try Self.contents(folder) == ["edit.yaml"])
    }

    /// Each bad input: exit 1, one line naming the problem, and no file at the output path.
    @Test(arguments: [
        (["--cfr", "30", "--codec", "vp9"], "unknown video codec"),
        (["--cfr", "30", "--codec", "prores", "--profile", "ultra"], "--profile ultra"),
        (["--cfr", "0"], "positive"),
        (["--cfr=-30"], "positive"),
        (["--cfr", "2000"], "at most 1000"),
        (["--cfr", "fast"], "--cfr: expects"),
        (["--cfr", "30", "--size", "641x480"], "even"),
        (["--cfr", "30", "--size", "0x0"], "even"),
        (["--cfr", "30", "--size", "big"], "--size expects"),
        (["--cfr", "30", "--codec", "prores", "--crf", "20"], "--crf: applies"),
        (["--cfr", "30", "--scaling", "zoom"], "--scaling"),
        (["--cfr", "30", "--frames", "magic"], "unknown frame choice"),
        ([], "--cfr fps"),
    ])
    func badOptionsAreClearErrors(_ arguments: [String], mentions: String) throws {
        let (result, folder) = try Self.export(["--section", "2-4x0.5", "-o", "$OUT/out.mp4"] + arguments)
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.lowercased().contains(mentions.lowercased()), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(try Self.contents(folder).isEmpty)
    }

    @Test func retimeVideoOptionsNeedCFR() throws {
        let (result, folder) = try Self.export(["--section", "2-4x0.5", "--codec", "hevc", "-o", "$OUT/out.mov"], command: "retime")
        #expect(result.status == 64)
        #expect(result.standardError.contains("need --cfr"), "\(result.standardError)")
        #expect(try Self.contents(folder).isEmpty)
        let (planned, _) = try Self.export(["--section", "2-4x0.25", "--cfr", "30000/1001", "--dry-run"], command: "retime")
        #expect(planned.status == 0)
        #expect(planned.standardOutput.contains("constant frame rate 30000/1001 fps: 480 frames"), "\(planned.standardOutput)")
    }

    @Test func hdrIntoH264WithToneMappingOffIsRefused() throws {
        let (result, folder) = try Self.export(["--section", "0.2-0.4x0.5", "--cfr", "30", "--tone-map", "off", "-o", "$OUT/out.mp4"],
                                               input: try Fixture.hlg.path)
        #expect(result.status == 64)
        #expect(result.standardError.contains("HDR"))
        #expect(result.standardError.contains("--codec hevc"))
        #expect(try Self.contents(folder).isEmpty)
    }

    @Test func proResNeedsMov() throws {
        let (result, folder) = try Self.export(["--section", "2-4x0.5", "--cfr", "30", "--codec", "prores", "-o", "$OUT/out.mp4"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("use .mov"), "\(result.standardError)")
        #expect(try Self.contents(folder).isEmpty)
    }

    @Test func existingOutputNeedsOverwrite() throws {
        let folder = try FixtureCache.shared.scratchFolder("export-exists")
        let output = folder.appendingPathComponent("out.mp4").path
        _ = FileManager.default.createFile(atPath: output, contents: Data("precious".utf8))
        let refused = try Slomo.run(["export", try Fixture.videoOnly.path, "--section", "0.5-1x0.5", "--cfr", "30", "-o", output])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("--overwrite"))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "precious")
        let replaced = try Slomo.run(["export", try Fixture.videoOnly.path, "--section", "0.5-1x0.5", "--cfr", "30",
                                      "--preset", "ultrafast", "-o", output, "--overwrite", "-q"])
        #expect(replaced.status == 0, "\(replaced.standardError)")
        #expect(try Self.contents(folder) == ["out.mp4"])
    }

    @Test func interruptLeavesNothingBehind() throws {
        let folder = try FixtureCache.shared.scratchFolder("export-interrupt")
        try expectInterruptLeavesNothing(["export", try Fixture.hfr240.path, "--section", "0-10x0.25", "--cfr", "30",
                                          "--preset", "slow", "-o", folder.path + "/out.mp4"], in: folder)
    }
}

/// Issue 37, defect 2: command-line options override a script's output settings (`--cfr` over
/// a `mode: cfr` without fps), and a script's mistake names the script.
@Suite struct ExportScriptOverrideTests {
    static func script(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("j.json").path
        try """
            {"slomo": 1, "clips": [{"source": "\(try Fixture.videoOnly.path)"}], "output": {"mode": "cfr"}}
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func cfrOnTheCommandLineGivesTheScriptItsFrameRate() throws {
        let folder = try FixtureCache.shared.scratchFolder("export-script-cfr")
        let output = folder.appendingPathComponent("out.mp4").path
        let result = try Slomo.run(["export", try Self.script(in: folder), "--cfr", "25", "--preset", "ultrafast", "-o", output])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try FFprobe(output).stream("video")?["r_frame_rate"] as? String == "25/1")
        #expect(try FFprobe.packets(output).count == 50)
    }

    @Test func aScriptsMistakeNamesTheScript() throws {
        let folder = try FixtureCache.shared.scratchFolder("export-script-nofps")
        let result = try Slomo.run(["export", try Self.script(in: folder), "-o", folder.appendingPathComponent("out.mp4").path])
        #expect(result.status != 0)
        #expect(result.standardError.contains("j.json:1: output.fps"), "\(result.standardError)")
    }

    /// What only the source shows wrong (a section past the clip's end) names the script and
    /// the line of the section too.
    @Test func aSectionPastTheSourceNamesTheScriptAndLine() throws {
        let folder = try FixtureCache.shared.scratchFolder("export-script-late-section")
        let path = folder.appendingPathComponent("edit.yaml").path
        try "slomo: 1\nclips:\n  - source: \(try Fixture.videoOnly.path)\n    sections:\n      - 1-2x0.5\n      - 50-60x0.5\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let result = try Slomo.run(["export", path, "-o", folder.appendingPathComponent("out.mp4").path])
        #expect(result.status == 1, "\(result.standardError)")    // the file's content, not usage
        #expect(result.standardError.contains("edit.yaml:6: clips[0].sections[1]") && result.standardError.contains("past the clip's end"),
                "\(result.standardError)")
    }
}


/// Issue 37, defect 4: a constant-frame-rate export keeps the source's start timecode, at the
/// output's rate (retime keeps it as it is).
@Suite struct ExportTimecodeTests {
    @Test func theStartTimecodeIsKeptAtTheOutputRate() throws {
        let source = try FixtureCache.shared.path(for: "timecode240", extension: "mov", arguments: [
            "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=240:duration=2",
            "-c:v", "libx264", "-preset", "ultrafast", "-timecode", "01:00:00:120"])
        let folder = try FixtureCache.shared.scratchFolder("export-timecode")
        for name in ["out.mov", "out.mp4"] {
            let output = folder.appendingPathComponent(name).path
            let result = try Slomo.run(["export", source, "--section", "0.5-1x0.5", "--cfr", "30", "--preset", "ultrafast", "-o", output])
            #expect(result.status == 0, "\(result.standardError)")
            let tags = try runChecked("ffprobe", ["-v", "error", "-show_entries", "stream_tags=timecode", "-of", "csv=p=0", output])
            #expect(tags.standardOutput.contains("01:00:00:15"), "\(name): \(tags.standardOutput)")
        }
    }
}
