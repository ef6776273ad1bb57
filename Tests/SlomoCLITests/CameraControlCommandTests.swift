import Foundation
import SlomoTestSupport
import Testing

/// `slomo devices --controls` and `slomo capture`'s camera settings, against recorded cameras
/// (`v4l2-ctl --list-ctrls-menus` listings) standing in for /dev/videoN.
@Suite struct CameraControlCommandTests {
    static func fixture(_ name: String) -> String {
        CaptureDevicesTests.fixtures.appendingPathComponent(name).path
    }

    static let webcam = fixture("uvc-webcam-controls.txt"), fast = fixture("hfr-usb-camera-controls.txt")

    @Test func devicesListsControlsAsText() throws {
        let result = try Slomo.run(["devices", "--controls", "--recorded", Self.fixture("hfr-usb-camera.txt"),
                                    "--recorded-controls", Self.fast])
        #expect(result.status == 0, "\(result.standardError)")
        print(result.standardOutput)
        let out = result.standardOutput
        #expect(out.contains("exposure_absolute 0x009a0902 (int)    : min=1 max=5000 step=1 default=157 value=157 flags=inactive"))
        #expect(out.contains("exposure_auto 0x009a0901 (menu)   : min=0 max=3 default=3 value=3 (Aperture Priority Mode)"))
        #expect(out.contains("1: Manual Mode"))
        #expect(out.contains("Camera Controls") && out.contains("MJPG 1280x720 @ 240"))
    }

    @Test func devicesListsControlsAsJSON() throws {
        let result = try Slomo.run(["devices", "--controls", "--json", "--recorded", Self.fixture("hfr-usb-camera.txt"),
                                    "--recorded-controls", Self.webcam])
        #expect(result.status == 0, "\(result.standardError)")
        let root = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any] ?? [:]
        let camera = (root["cameras"] as? [[String: Any]])?.first ?? [:]
        let controls = camera["controls"] as? [[String: Any]] ?? []
        #expect(controls.count == 17)
        #expect((camera["formats"] as? [Any])?.count == 5, "the formats are still there")
        let mode = try #require(controls.first { $0["name"] as? String == "auto_exposure" })
        print(mode)
        #expect(mode["kind"] as? String == "menu" && mode["value"] as? Int == 3 && mode["id"] as? Int == 0x009A_0901)
        #expect((mode["menu"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Manual Mode", "Aperture Priority Mode"])
        let time = try #require(controls.first { $0["name"] as? String == "exposure_time_absolute" })
        #expect(time["flags"] as? [String] == ["inactive"] && time["minimum"] as? Int == 3 && time["maximum"] as? Int == 2047)
        #expect(time["group"] as? String == "Camera Controls" && time["step"] as? Int == 1 && time["defaultValue"] as? Int == 250)
        let plain = try Slomo.run(["devices", "--json", "--recorded", Self.fixture("hfr-usb-camera.txt")])
        let withoutControls = try JSONSerialization.jsonObject(with: Data(plain.standardOutput.utf8)) as? [String: Any] ?? [:]
        #expect((withoutControls["cameras"] as? [[String: Any]])?.first?["controls"] == nil, "only with --controls")
    }

    /// Friendly settings and a named control, set on the recorded camera before a test-pattern
    /// recording: the messages say what was set and why, and the movie's metadata has the
    /// controls in force, read back by ffprobe.
    @Test func captureSetsControlsAndRecordsThem() throws {
        let folder = try FixtureCache.shared.scratchFolder("capture-controls")
        defer { try? FileManager.default.removeItem(at: folder) }
        let take = folder.appendingPathComponent("take.mov").path
        let result = try Slomo.run(["capture", "--input", "testsrc:160x120@30", "--duration", "1", "-o", take,
                                    "--recorded-camera", Self.fast, "--format", "640x480@120",
                                    "--exposure", "1/1000", "--white-balance", "locked", "--flicker", "60",
                                    "--control", "gain=40", "--progress", "none"])
        print(result.standardError)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("setting exposure_auto=1 (Manual Mode), white_balance_temperature_auto=0, "
                                              + "gain=40, exposure_absolute=10, power_line_frequency=2 (60 Hz)"))
        let tags = try FFprobe(take).format["tags"] as? [String: String] ?? [:]
        let controls = tags["camera_controls"] ?? ""
        print("camera_controls: \(controls)")
        for expected in ["exposure_auto=1", "exposure_absolute=10", "white_balance_temperature_auto=0", "power_line_frequency=2",
                         "gain=40", "exposure_auto_priority=1", "brightness=0"] {
            #expect(controls.split(separator: " ").contains(Substring(expected)), "\(expected) in \(controls)")
        }
    }

    /// A rate asked for with automatic exposure: exposure priority is turned off, and said.
    @Test func captureTurnsOffExposurePriorityForARate() throws {
        let folder = try FixtureCache.shared.scratchFolder("capture-priority")
        defer { try? FileManager.default.removeItem(at: folder) }
        let take = folder.appendingPathComponent("take.mov").path
        let result = try Slomo.run(["capture", "--input", "testsrc:160x120@30", "--duration", "0.5", "-o", take,
                                    "--recorded-camera", Self.fast, "--format", "1280x720@240", "--progress", "none"])
        #expect(result.status == 0, "\(result.standardError)")
        print(result.standardError)
        #expect(result.standardError.contains("exposure_auto_priority was on: in dim light the camera could lower its rate below 240 fps; turned off"))
        let controls = (try FFprobe(take).format["tags"] as? [String: String])?["camera_controls"] ?? ""
        #expect(controls.split(separator: " ").contains("exposure_auto_priority=0"))
    }

    /// Values outside the camera's ranges and unknown controls: exit 64 before anything opens,
    /// one line naming the option and the range or the choices, no file.
    @Test func badSettingsAreUsageErrors() throws {
        let folder = try FixtureCache.shared.scratchFolder("capture-controls-bad")
        defer { try? FileManager.default.removeItem(at: folder) }
        let take = folder.appendingPathComponent("take.mov").path
        let cases: [([String], String)] = [
            (["--recorded-camera", Self.fast, "--exposure", "1/100000"], "--exposure 1/100000: shorter than"),
            (["--recorded-camera", Self.fast, "--control", "gain=500"], "--control gain=500: gain takes 0…100, not 500"),
            (["--recorded-camera", Self.fast, "--control", "gian=5"], "did you mean gain?"),
            (["--recorded-camera", Self.fast, "--focus", "locked"], "has no autofocus control"),
            (["--recorded-camera", Self.webcam, "--torch", "on"], "has no torch"),
            (["--recorded-camera", Self.fast, "--exposure", "soon"], "--exposure soon: expected an exposure time"),
            (["--exposure", "1/500"], "camera settings need a camera input"),
            (["--recorded-camera", Self.fast, "--format", "640x480@240", "--exposure", "1/120"], "longer than a frame at 240 fps"),
        ]
        for (options, expected) in cases {
            let result = try Slomo.run(["capture", "--input", "testsrc:160x120@30", "--duration", "0.5", "-o", take] + options)
            print("\(options.last ?? ""): exit \(result.status): \(result.standardError.trimmingCharacters(in: .newlines))")
            #expect(result.status == 64, "\(options)")
            #expect(result.standardError.contains(expected), "\(result.standardError) lacks \(expected)")
            #expect(result.standardError.split(separator: "\n").count == 1, "one line")
            #expect(!FileManager.default.fileExists(atPath: take))
        }
    }
}
