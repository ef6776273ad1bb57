import Foundation
import SlomoTestSupport
import Testing

/// `--phone` and `--real-time`: a 240 fps clip with a Photos sidecar, with only a capture-rate
/// tag, with a broken sidecar, with neither, and a clip stored already slowed.
@Suite struct PhoneCommandTests {
    /// The 240 fps flash-and-beep clip copied into a fresh folder as `IMG_0001.MOV`.
    static func phoneClip(_ label: String) throws -> URL {
        let folder = try FixtureCache.shared.scratchFolder("cli-phone-\(label)")
        let movie = folder.appendingPathComponent("IMG_0001.MOV")
        try? FileManager.default.removeItem(at: movie)
        try FileManager.default.copyItem(atPath: try Fixture.flashAndBeep.path, toPath: movie.path)
        return movie
    }

    /// A Photos adjustment of format 1.1 with one region, as Foundation writes property lists.
    static func writeSidecar(beside movie: URL, start: Int64, duration: Int64, rate: Double) throws {
        let time = { (value: Int64) -> [String: Any] in ["value": value, "timescale": 600, "flags": 1, "epoch": 0] }
        let body: [String: Any] = ["slowMotion": ["rate": rate, "regions": [["timeRange": ["start": time(start), "duration": time(duration)]]]]]
        let root: [String: Any] = [
            "adjustmentData": try PropertyListSerialization.data(fromPropertyList: body, format: .binary, options: 0),
            "adjustmentFormatIdentifier": "com.apple.video.slomo", "adjustmentFormatVersion": "1.1",
            "adjustmentBaseVersion": 0, "adjustmentRenderTypes": 0,
        ]
        try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
            .write(to: movie.deletingPathExtension().appendingPathExtension("AAE"))
    }

    static func plan(_ arguments: [String]) throws -> (root: [String: Any], stderr: String) {
        let result = try Slomo.run(["plan"] + arguments + ["--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        return (root, result.standardError)
    }

    /// Region 2–4 s at 0.125 with 0.2 s ramps: 2 + 0.9 + 12.8 + 0.9 + 6 = 22.6 s, exported at 30 fps.
    @Test func sidecarRegionsRetimeAsPhotosWould() throws {
        let movie = try Self.phoneClip("sidecar")
        try Self.writeSidecar(beside: movie, start: 1200, duration: 1200, rate: 0.125)
        let (root, stderr) = try Self.plan([movie.path, "--phone"])
        #expect(stderr.contains("slow motion from IMG_0001.AAE (AAE 1.1): rate 0.125, 1 region(s) (2.000-4.000 s), export at 30 fps"))
        let segments = try #require(root["segments"] as? [[String: Any]])
        #expect(segments.map { $0["rateText"] as? String } == ["1", "1→0.125", "0.125", "0.125→1", "1"])
        #expect(segments.map { JSONTime.seconds($0["sourceStart"]) } == [0, 2, 2.2, 3.8, 4])
        #expect(JSONTime.exact(root["outputDuration"]) == "22.6")
        #expect(root["cfrFrameRate"] as? String == "30", "Photos exports at 30 fps")

        let inspect = try Slomo.run(["inspect", movie.path])
        #expect(inspect.standardOutput.contains("phone  slow motion from IMG_0001.AAE (AAE 1.1): rate 0.125"), "\(inspect.standardOutput)")
        let json = try Slomo.run(["inspect", movie.path, "--json"])
        let inspected = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let phone = try #require(inspected["phone"] as? [String: Any])
        #expect(phone["origin"] as? String == "sidecar" && phone["sidecarFormat"] as? String == "AAE 1.1")
        #expect(phone["rate"] as? String == "1/8" && phone["exportFrameRate"] as? String == "30")
        #expect(phone["regions"] as? [[String: String]] == [["start": "2", "end": "4"]])
        #expect(inspected["streams"] != nil, "the file's own fields stay")

        let output = movie.deletingLastPathComponent().appendingPathComponent("phone.mov").path
        let retime = try Slomo.run(["retime", movie.path, "--phone", "-o", output, "--overwrite", "--quiet"])
        #expect(retime.status == 0, "\(retime.standardError)")
        let duration = try #require((try FFprobe(output).stream("video")?["duration"] as? String).flatMap(Double.init))
        #expect(abs(duration - 22.6) < 0.01, "retimed video lasts \(duration) s")

        let exported = movie.deletingLastPathComponent().appendingPathComponent("phone30.mp4").path
        let export = try Slomo.run(["export", movie.path, "--phone", "-o", exported, "--overwrite", "--quiet"])
        #expect(export.status == 0, "\(export.standardError)")
        let video = try #require(try FFprobe(exported).stream("video"))
        #expect(video["r_frame_rate"] as? String == "30/1", "exported at Photos' 30 fps")
        #expect(video["nb_frames"] as? String == "678", "22.6 s at 30 fps")
    }

    /// Without a sidecar, an Android capture-rate tag of 240 fps gives Photos' rate (0.125);
    /// the region is the one around the strongest moment detected (the first beep, at 0.5 s:
    /// 0-1.5 s), and Photos' middle of the clip (all but the first and last tenth) only when
    /// nothing is detected.
    @Test func withoutASidecarTheDetectedMomentOrPhotosDefaultsApply() throws {
        let folder = try FixtureCache.shared.scratchFolder("cli-phone-tag")
        let tagged = folder.appendingPathComponent("tagged.mp4").path
        try runChecked("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", try Fixture.flashAndBeep.path, "-c", "copy",
                                  "-movflags", "use_metadata_tags", "-metadata", "com.android.capture.fps=240.000000", tagged])
        let (root, stderr) = try Self.plan([tagged, "--phone"])
        #expect(stderr.contains("capture-rate tag (240 fps) and the moment detected at 0.500 s: rate 0.125, 1 region(s) (0.000-1.500 s)"),
                "\(stderr)")
        let segments = try #require(root["segments"] as? [[String: Any]])
        #expect(segments.map { JSONTime.seconds($0["sourceStart"]) } == [0, 0.2, 1.3, 1.5])
        #expect(segments[1]["rate"] as? Double == 0.125)

        let still = try SyntheticClip(falls: [], sound: false).write(named: "still", in: folder)
        let stillTagged = folder.appendingPathComponent("still-tagged.mp4").path
        try runChecked("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", still.path, "-c", "copy",
                                  "-movflags", "use_metadata_tags", "-metadata", "com.android.capture.fps=240.000000", stillTagged])
        let (_, guessed) = try Self.plan([stillTagged, "--phone"])
        #expect(guessed.contains("capture-rate tag (240 fps) and Photos' defaults: rate 0.125, 1 region(s) (0.200-1.800 s)"),
                "\(guessed)")
    }

    @Test func phoneCombinesWithSections() throws {
        let movie = try Self.phoneClip("combined")
        try Self.writeSidecar(beside: movie, start: 1200, duration: 1200, rate: 0.25)
        let (root, _) = try Self.plan([movie.path, "--phone", "--section", "6-8x2"])
        let rates = (root["segments"] as? [[String: Any]])?.map { $0["rateText"] as? String }
        #expect(rates == ["1", "1→0.25", "0.25", "0.25→1", "1", "2", "1"])
    }

    @Test func brokenSidecarNamesTheFileAndTheProblem() throws {
        let movie = try Self.phoneClip("broken")
        let sidecar = movie.deletingPathExtension().appendingPathExtension("AAE")
        try Data("<plist><dict><key>adjustmentFormatIdentifier</key><string>com.apple.video.slomo</string></dict></plist>".utf8)
            .write(to: sidecar)
        let result = try Slomo.run(["retime", movie.path, "--phone"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("\(sidecar.path): has no adjustmentData"), "\(result.standardError)")
        let inspect = try Slomo.run(["inspect", movie.path])
        #expect(inspect.status == 0, "inspect reports a broken sidecar instead of failing")
        #expect(inspect.standardOutput.contains("sidecar unreadable"))
        let json = try Slomo.run(["inspect", movie.path, "--json"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect((root["phone"] as? [String: String])?["error"]?.contains("has no adjustmentData") == true)
    }

    @Test func neitherSidecarNorTagIsSaid() throws {
        let movie = try Self.phoneClip("plain")
        let result = try Slomo.run(["retime", movie.path, "--phone"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("has no slow-motion sidecar (.AAE, .SLM) beside it and no capture-rate tag"))
    }

    /// 4 s stored at 30 fps, captured at 120: `--real-time` plays it 4x, in 1 s.
    @Test func realTimeUndoesStoredSlowMotion() throws {
        let folder = try FixtureCache.shared.scratchFolder("cli-phone-slowed")
        let slowed = folder.appendingPathComponent("slowed.mp4").path
        try runChecked("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30:duration=4",
                                  "-c:v", "libx264", "-preset", "ultrafast", "-movflags", "use_metadata_tags",
                                  "-metadata", "com.android.capture.fps=120.000000", slowed])
        let (root, stderr) = try Self.plan([slowed, "--real-time"])
        #expect(stderr.contains("the file is already slowed"))
        #expect(JSONTime.exact(root["outputDuration"]) == "1")
        let notSlowed = try Slomo.run(["plan", try Fixture.flashAndBeep.path, "--real-time"])
        #expect(notSlowed.status == 1)
    }
}
