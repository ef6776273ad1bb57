import Foundation
import SlomoTestSupport
import Testing

/// `slomo detect` and `--section auto` from the command line: the table and the JSON name the
/// landing's frame; `auto` gives the same section in plan, retime, export and a batch job, and
/// the retimed movie has the length that section makes; a clip with no moment is "no moment
/// found" for detect and exit 1 for `--section auto`.
@Suite struct DetectCommandTests {
    static let landing: URL = {
        let folder = try! FixtureCache.shared.scratchFolder("detect-cli")
        return try! SyntheticClip().write(named: "landing", in: folder)
    }()

    @Test func tableAndJSONNameTheLanding() throws {
        let table = try Slomo.run(["detect", Self.landing.path])
        #expect(table.status == 0, "\(table.standardError)")
        let rows = table.standardOutput.split(separator: "\n")
        #expect(rows.first?.hasSuffix("2.000 s; 480 frames; 1 sound onset") == true, "\(table.standardOutput)")
        #expect(rows.count == 3 && rows[2].hasPrefix("1  1.200 s  288    2.00   motion, sound  0.2-2x0.25"), "\(table.standardOutput)")

        let json = try Slomo.run(["detect", Self.landing.path, "--json", "--curves", "--before", "0.5", "--after", "0.25"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(root["schemaVersion"] as? Int == 1)
        let moment = try #require((root["moments"] as? [[String: Any]])?.first)
        #expect(moment["frame"] as? Int == 288)
        #expect(moment["foundBy"] as? [String] == ["motion", "sound"])
        let section = try #require(moment["section"] as? [String: Any])
        #expect((section["start"] as? [String: Any])?["exact"] as? String == "0.7")
        #expect((section["duration"] as? [String: Any])?["exact"] as? String == "0.75")
        #expect((root["motion"] as? [Any])?.count == 480)

        let usage = try Slomo.run(["detect", Self.landing.path, "--curves"])
        #expect(usage.status == 64)
    }

    @Test func autoSectionIsTheSameEverywhere() throws {
        let folder = try FixtureCache.shared.scratchFolder("detect-auto")
        let note = "section auto: the moment at 1.200 s (frame 288, motion and sound, score 2.00) slowed as 0.2-2x0.25"
        for command in [["plan"], ["retime", "--dry-run"], ["export", "--cfr", "30", "--dry-run"]] {
            let run = try Slomo.run([command[0], Self.landing.path, "--section", "auto"] + command.dropFirst())
            #expect(run.status == 0, "\(command): \(run.standardError)")
            #expect(run.standardError.contains(note), "\(command): \(run.standardError)")
        }
        let output = folder.appendingPathComponent("slow.mov").path
        let retime = try Slomo.run(["retime", Self.landing.path, "--section", "auto:x0.5:before=0.5:after=0.25", "-o", output, "-q"])
        #expect(retime.status == 0, "\(retime.standardError)")
        let duration = try #require((try FFprobe(output).stream("video")?["duration"] as? String).flatMap(Double.init))
        #expect(abs(duration - 2.75) < 0.005, "0.7-1.45 at 0.5 lasts 1.5 s: 2.75 s in all, got \(duration)")

        let run = folder.appendingPathComponent("run").path
        let plan = try Slomo.run(["batch", "plan", Self.landing.path, "--section", "auto", "-o",
                                  folder.appendingPathComponent("{stem}-auto.mov").path, "--run", run])
        #expect(plan.status == 0, "\(plan.standardError)")
        let batch = try Slomo.run(["batch", "run", run, "--engine", "local"])
        #expect(batch.status == 0, "\(batch.standardError)")
        let batched = folder.appendingPathComponent("landing-auto.mov").path
        let length = try #require((try FFprobe(batched).stream("video")?["duration"] as? String).flatMap(Double.init))
        #expect(abs(length - 7.4) < 0.005, "0.2-2 at 0.25 lasts 7.2 s: 7.4 s in all, got \(length)")
    }

    /// `auto:count=2` on two landings slows both, each around its own landing, in time order.
    @Test func autoCountSlowsTheStrongestMoments() throws {
        let folder = try FixtureCache.shared.scratchFolder("detect-count")
        let clip = try SyntheticClip(falls: [SyntheticClip.Fall(x: 40, size: 16, landing: 1.25, click: 0.1),
                                             SyntheticClip.Fall(x: 220, size: 40, landing: 2.6, click: 0.8)], duration: 3)
            .write(named: "two", in: folder)
        let plan = try Slomo.run(["plan", clip.path, "--section", "auto:x0.5:before=0.25:after=0.25:count=2"])
        #expect(plan.status == 0, "\(plan.standardError)")
        let notes = plan.standardError.split(separator: "\n").filter { $0.hasPrefix("section auto:") }
        #expect(notes.count == 2)
        #expect(notes.first?.hasSuffix("slowed as 1-1.5x0.5") == true, "\(notes)")
        #expect(notes.last?.hasSuffix("slowed as 2.35-2.85x0.5") == true, "\(notes)")
        // The moment played backwards instead: the same section, reversed.
        let backwards = try Slomo.run(["plan", clip.path, "--section", "auto:x-1:before=0.25:after=0.25", "--json"])
        #expect(backwards.status == 0, "\(backwards.standardError)")
        #expect(backwards.standardError.contains("played backwards as 2.35-2.85x-1"), "\(backwards.standardError)")
        #expect(backwards.standardOutput.contains("\"reversed\" : true"))
    }

    /// `auto` in an edit script's sections: the same section, said with the script's path and
    /// the clip's place, and the retimed length it makes.
    @Test func autoInAnEditScript() throws {
        let folder = try FixtureCache.shared.scratchFolder("detect-script")
        let script = folder.appendingPathComponent("edit.yaml")
        try "slomo: 1\nclips:\n  - source: \(Self.landing.path)\n    sections: [auto]\n".write(to: script, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("slow.mov").path
        let retime = try Slomo.run(["retime", script.path, "-o", output])
        #expect(retime.status == 0, "\(retime.standardError)")
        #expect(retime.standardError.contains("\(script.path): clips[0]: section auto: the moment at 1.200 s (frame 288, "
                                              + "motion and sound, score 2.00) slowed as 0.2-2x0.25"), "\(retime.standardError)")
        let duration = try #require((try FFprobe(output).stream("video")?["duration"] as? String).flatMap(Double.init))
        #expect(abs(duration - 7.4) < 0.005, "\(duration)")
    }

    @Test func noMomentIsSaid() throws {
        let folder = try FixtureCache.shared.scratchFolder("detect-nothing")
        let still = try SyntheticClip(falls: [], sound: false).write(named: "still", in: folder)
        let detect = try Slomo.run(["detect", still.path])
        #expect(detect.status == 0)
        #expect(detect.standardOutput.hasSuffix("no moment found: nothing moves or sounds sharply\n"), "\(detect.standardOutput)")
        let retime = try Slomo.run(["retime", still.path, "--section", "auto", "-o", folder.appendingPathComponent("o.mov").path])
        #expect(retime.status == 1)
        #expect(retime.standardError.contains("no moment found in \(still.path)"), "\(retime.standardError)")
        let syntax = try Slomo.run(["plan", still.path, "--section", "auto:count=0"])
        #expect(syntax.status == 64, "\(syntax.standardError)")
    }
}
