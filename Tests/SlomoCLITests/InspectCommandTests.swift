import Foundation
import SlomoCore
import SlomoTestSupport
import Testing

/// `slomo inspect` end to end: the built binary on generated files.
@Suite struct InspectCommandTests {
    @Test func printsATable() throws {
        let result = try Slomo.run(["inspect", try Fixture.hfr240.path])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("240 nominal, 240 average  (high frame rate)"))
        #expect(result.standardOutput.contains("1280x720, yuv420p, 8-bit"))
        #expect(result.standardOutput.contains("48000 Hz, stereo (2 ch)"))
    }

    @Test func jsonWithFrames() throws {
        let result = try Slomo.run(["inspect", "--json", "--frames", try Fixture.vfr.path])
        #expect(result.status == 0)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(root["schemaVersion"] as? Int == 2)
        let streams = try #require(root["streams"] as? [[String: Any]])
        let timing = try #require(streams.first?["frameTiming"] as? [String: Any])
        #expect(timing["isVariableFrameRate"] as? Bool == true)
        #expect(timing["frameCount"] as? Int == 90)
    }

    /// Issue 37, defect 7: 29.97 fps in a millisecond time base whose timestamps stray ±1 ms
    /// (intervals of 32 to 35 ms) is a constant rate within the container's rounding; a frame
    /// dropped from it is still variable.
    @Test func millisecondJitterIsConstantRate() throws {
        let quiet = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"]
        let steady = try FixtureCache.shared.path(for: "ntsc-ms", extension: "mp4", arguments: quiet + [
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30000/1001:duration=3", "-c:v", "libx264", "-preset", "ultrafast",
            "-video_track_timescale", "1000"])
        // Every third frame 1 ms late (no B-frames, so decoding order is display order).
        let late = "if(eq(mod(N\\,3)\\,1)\\,1\\,0)"
        let jittered = try FixtureCache.shared.path(for: "ntsc-ms-jitter", extension: "mp4", arguments: quiet + [
            "-i", steady, "-c", "copy", "-video_track_timescale", "1000", "-bsf:v", "setts=pts=PTS+\(late):dts=DTS+\(late)"])
        let dropped = try FixtureCache.shared.path(for: "ntsc-ms-dropped", extension: "mp4", arguments: quiet + [
            "-i", steady, "-c", "copy", "-video_track_timescale", "1000", "-bsf:v", "setts=pts=PTS+if(gte(N\\,45)\\,33\\,0):dts=DTS+if(gte(N\\,45)\\,33\\,0)"])
        let intervals = Set(try FFprobe.packets(jittered).map(\.pts).sorted().adjacentDifferences)
        #expect(intervals.min() == 32 && intervals.max() == 35, "the fixture strays ±1 ms: \(intervals.sorted())")
        for (file, variable) in [(jittered, false), (dropped, true)] {
            let result = try Slomo.run(["inspect", file, "--frames"])
            #expect(result.status == 0)
            #expect(result.standardOutput.contains(variable ? "variable frame rate" : "constant frame rate"), "\(result.standardOutput)")
        }
    }

    /// Issue 16: several files one after the other, `--json` as an array; a file that cannot
    /// be read is reported and the others are still shown, with status 1.
    @Test func severalFiles() throws {
        let files = [try Fixture.hfr240.path, try Fixture.vfr.path]
        let table = try Slomo.run(["inspect"] + files)
        #expect(table.status == 0)
        #expect(table.standardOutput.components(separatedBy: "\nfile ").count == 2, "two file blocks")
        let json = try Slomo.run(["inspect", "--json"] + files)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(array.map { $0["path"] as? String } == files)
        #expect(array.allSatisfy { $0["slomoVersion"] as? String == SlomoVersion.current })
        let missing = try Slomo.run(["inspect", files[0], "/nonexistent/clip.mov", files[1], "--json"])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("/nonexistent/clip.mov"))
        #expect((try JSONSerialization.jsonObject(with: Data(missing.standardOutput.utf8)) as? [Any])?.count == 2)
    }

    @Test func versionIsPrinted() throws {
        let result = try Slomo.run(["--version"])
        #expect(result.status == 0)
        #expect(result.standardOutput == "slomo \(SlomoVersion.current)\n")
    }

    @Test(arguments: BadInput.allCases)
    func badInputIsOneLineAndExitOne(_ input: BadInput) throws {
        let path = try input.make(in: try FixtureCache.shared.scratchFolder("cli-bad"))
        let result = try Slomo.run(["inspect", path])
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains(path) == true)
    }

    @Test func usageErrorsExitWithUsageStatus() throws {
        let unknown = try Slomo.run(["inspect", "--no-such-flag", "x.mov"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError.contains("--help"), "points to the help")
        let missing = try Slomo.run(["inspect"])
        #expect(missing.status == 64)
        #expect(missing.standardError.contains("Missing expected argument"))
    }

    @Test func ffmpegMessagesAreHiddenUnlessAsked() throws {
        let path = try BadInput.truncated.make(in: try FixtureCache.shared.scratchFolder("cli-log"))
        let hidden = try Slomo.run(["inspect", path])
        #expect(hidden.standardError.split(separator: "\n").count == 1)
        let shown = try Slomo.run(["inspect", path], environment: ["SLOMO_FFMPEG_LOG": "error"])
        #expect(shown.status == 1)
        #expect(shown.standardError.split(separator: "\n").count == 2)
        #expect(shown.standardError.hasPrefix("moov atom not found"))
    }
}

extension Array where Element == Int64 {
    /// The differences between neighbours.
    var adjacentDifferences: [Int64] { zip(dropFirst(), self).map { $0 - $1 } }
}
