import Foundation
import SlomoTestSupport
import Testing

/// `slomo plan` end to end: the built binary on a generated 10 s, 240 fps clip.
@Suite struct PlanCommandTests {
    @Test func quarterSpeedSectionTable() throws {
        let result = try Slomo.run(["plan", try Fixture.hfr240.path, "--section", "2-4x0.25"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.last == "total output duration: 16.000 s")
        let middle = try #require(lines.first { $0.hasPrefix("2 ") })
        #expect(middle.contains("2.000-4.000") && middle.contains("2.000-10.000"))
        #expect(middle.contains("0.25") && middle.contains("60.000") && middle.contains("480"))
    }

    /// Issue 37, defect 9: from segment 10 on, the table's columns stay where they were (the
    /// number column is right-aligned, and its padding is no longer trimmed away).
    @Test func columnsStayAlignedPastNineSegments() throws {
        let sections = (0..<6).flatMap { ["--section", "\($0 + 1)-\($0 + 1).5x0.5"] }
        let result = try Slomo.run(["plan", try Fixture.hfr240.path] + sections)
        #expect(result.status == 0, "\(result.standardError)")
        let rows = result.standardOutput.split(separator: "\n").map(String.init).filter { $0.drop { $0 == " " }.first?.isNumber == true }
        #expect(rows.count >= 12, "\(result.standardOutput)")
        // Where the source column starts: after the (padded) number and the spaces that follow it.
        let sourceColumns = Set(rows.map { row -> Int in
            let rest = row.drop { $0 == " " }.drop { $0.isNumber }.drop { $0 == " " }
            return row.count - String(rest).count
        })
        #expect(sourceColumns.count == 1, "the source column starts at \(sourceColumns.sorted()):\n\(result.standardOutput)")
    }

    /// Issue 16, item 4: the VFR fixture says 60 fps but holds 30 fps in its first second.
    /// Plans count its real frames and say it is variable; `auto` interpolates the 0.5x section
    /// there at 30 fps out (15 real frames a second), where the nominal rate claimed 30 and
    /// chose nearest (repeating frames).
    @Test func variableFrameRateIsCountedNotAssumed() throws {
        let source = try Fixture.vfr.path
        let plan = try Slomo.run(["plan", source, "--section", "0.25-0.75x0.5", "--section", "1.25-1.75x0.5", "--json"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(plan.standardOutput.utf8)) as? [String: Any])
        #expect((root["clips"] as? [[String: Any]])?.first?["variableFrameRate"] as? Bool == true)
        let segments = try #require(root["segments"] as? [[String: Any]])
        #expect(segments[1]["sourceFrames"] as? Int == 15 && segments[1]["effectiveFrameRate"] as? Double == 15)
        #expect(segments[3]["sourceFrames"] as? Int == 30 && segments[3]["effectiveFrameRate"] as? Double == 30)
        let table = try Slomo.run(["plan", source])
        #expect(table.standardOutput.contains("variable frame rate (60 fps nominal; frames counted)"), "\(table.standardOutput)")
        let dryRun = try Slomo.run(["export", source, "--section", "0.25-0.75x0.5", "--cfr", "30", "--dry-run"])
        #expect(dryRun.standardOutput.contains("2  interpolate  (effective 15.000 fps"), "\(dryRun.standardOutput)")
        let constant = try Slomo.run(["plan", try Fixture.hfr240.path, "--section", "2-4x0.25", "--json"])
        let clip = (try JSONSerialization.jsonObject(with: Data(constant.standardOutput.utf8)) as? [String: Any])?["clips"]
        #expect((clip as? [[String: Any]])?.first?["variableFrameRate"] as? Bool == false)
    }

    /// Issue 16, item 10: units and SMPTE timecodes plan the same map as plain seconds.
    @Test(arguments: ["00:00:02:00-00:00:04:00x0.25:ramp=300ms", "2s-4000msx1/4:ramp=0.3", "f480-00:00:04.000x0.25:ramp=0.3"])
    func everyTimeFormPlansTheSameMap(section: String) throws {
        let plain = try Slomo.run(["plan", try Fixture.hfr240.path, "--section", "2-4x0.25:ramp=0.3", "--json"])
        let other = try Slomo.run(["plan", try Fixture.hfr240.path, "--section", section, "--json"])
        #expect(other.status == 0, "\(other.standardError)")
        let segments = { (text: String) in
            (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["segments"] as? [[String: Any]]
        }
        let expected = try #require(segments(plain.standardOutput))
        #expect(segments(other.standardOutput).map { NSArray(array: $0) } == NSArray(array: expected))
    }

    @Test func cfrCountsOutputFrames() throws {
        let result = try Slomo.run(["plan", try Fixture.hfr240.path, "--section", "2-4x0.25", "--cfr", "30"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("total output duration: 16.000 s, 480 frames at 30 fps"))
    }

    @Test func jsonCarriesTheSameNumbers() throws {
        let result = try Slomo.run(["plan", try Fixture.hfr240.path, "--section", "2-4x0.25", "--cfr", "30", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(root["schemaVersion"] as? Int == 2)
        #expect(JSONTime.exact(root["outputDuration"]) == "16")
        #expect(root["outputFrames"] as? Int == 480)
        let segments = try #require(root["segments"] as? [[String: Any]])
        #expect(segments.count == 3)
        #expect(segments[1]["effectiveFrameRate"] as? Double == 60)
        #expect(segments[1]["sourceFrames"] as? Int == 480)
        #expect(segments[1]["outputFrames"] as? Int == 240)
        #expect(segments[1]["audio"] as? String == "spectral")
    }

    @Test func editScript() throws {
        let folder = try FixtureCache.shared.scratchFolder("cli-plan")
        let script = folder.appendingPathComponent("edit.yaml").path
        let source = try Fixture.hfr240.path
        let text = "slomo: 1\nclips:\n  - source: \(source)\n    sections:\n      - 2-4x0.25\n"
            + "output:\n  mode: cfr\n  fps: 30\n  audio:\n    algorithm: varispeed\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: script))
        let result = try Slomo.run(["plan", script, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(root["outputFrames"] as? Int == 480)
        #expect((root["segments"] as? [[String: Any]])?.first?["audio"] as? String == "varispeed")
    }

    /// Issue 16: in a folder holding `ok.yaml` and `clip.mov`, `slomo plan ok.yaml` looked for
    /// `/clip.mov`. Relative sources resolve against the script's folder, named bare or not.
    @Test func scriptNamedBareFindsItsRelativeSource() throws {
        let folder = try FixtureCache.shared.scratchFolder("cli-plan-bare")
        try FileManager.default.copyItem(atPath: try Fixture.hfr240.path, toPath: folder.appendingPathComponent("clip.mov").path)
        try Data("slomo: 1\nclips:\n  - source: clip.mov\n    sections:\n      - 2-4x0.25\n".utf8)
            .write(to: folder.appendingPathComponent("ok.yaml"))
        let result = try runCommand("/bin/sh", ["-c", "cd '\(folder.path)' && '\(try Slomo.executable)' plan ok.yaml --json"])
        #expect(result.status == 0, "\(result.standardError)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let segments = try #require(root["segments"] as? [[String: Any]])
        print("plan ok.yaml from its own folder: \(segments.count) segments, the slowed one at \(segments.count > 1 ? segments[1]["effectiveFrameRate"] ?? "?" : "?") fps")
        #expect(segments.count == 3)
        #expect(segments.count > 1 && segments[1]["effectiveFrameRate"] as? Double == 60)
    }

    @Test(arguments: [
        (["2-4x0"], "section '2-4x0': rate 0 would stop time; hold a frame with a freeze (--freeze T:D) instead"),
        (["4-2x0.5"], "section '4-2x0.5': start 4 s must be before end 2 s"),
        (["2-4x64"], "section '2-4x64': rate 64 is outside the allowed 1/32 … 32"),
        (["2-4x0.5", "3-5x2"], "section '3-5x2': overlaps section '2-4x0.5'"),
        (["8-12x2"], "section '8-12x2': ends at 12 s, past the clip's end at 10 s (the clip lasts 10 s)"),
        (["2-4xfast"], "section '2-4xfast': rate 'fast': expected a rate such as 0.25, 1/4 or -1 (backwards)"),
        (["2-4x0.5:ramp=1.5"], "section '2-4x0.5:ramp=1.5': ramps of 1.5 s + 1.5 s are longer than the section's 2 s"),
    ])
    func badSectionsAreUsageErrorsNamingTheSection(sections: [String], message: String) throws {
        let result = try Slomo.run(["plan", try Fixture.hfr240.path] + sections.flatMap { ["--section", $0] })
        #expect(result.status == 64)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    @Test func badScriptsExitOneNamingTheDocumentPath() throws {
        let folder = try FixtureCache.shared.scratchFolder("cli-plan-bad")
        let script = folder.appendingPathComponent("bad.yaml").path
        try Data("slomo: 1\nclips:\n  - source: nowhere.mov\n".utf8).write(to: URL(fileURLWithPath: script))
        let missing = try Slomo.run(["plan", script])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("clips[0].source: source file"))
        let version = folder.appendingPathComponent("v2.json").path
        try Data("{\"slomo\": 2, \"clips\": []}".utf8).write(to: URL(fileURLWithPath: version))
        let wrong = try Slomo.run(["plan", version])
        #expect(wrong.status == 1)
        #expect(wrong.standardError.contains("slomo: version 2 is not supported"))
    }

    @Test func ntscDecimalMeansTheExactFraction() throws {
        let result = try Slomo.run(["plan", try Fixture.hfr240.path, "--section", "2-4x0.25", "--cfr", "29.97", "--json"])
        #expect(result.status == 0)
        let plan = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        #expect(plan?["cfrFrameRate"] as? String == "30000/1001")
    }

    @Test func cfrSourceIsTheSourcesExactRate() throws {
        let result = try Slomo.run(["plan", try Fixture.ntsc.path, "--section", "0.5-1x0.5", "--cfr", "source", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let plan = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        #expect(plan?["cfrFrameRate"] as? String == "30000/1001")
        let typo = try Slomo.run(["plan", try Fixture.ntsc.path, "--cfr", "sauce"])
        #expect(typo.status == 64)
        #expect(typo.standardError.contains("--cfr: expects a positive frame rate such as 30, 29.97"), "\(typo.standardError)")
    }
}
