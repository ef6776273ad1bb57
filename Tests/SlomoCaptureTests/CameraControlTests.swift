import Foundation
import SlomoCapture
import SlomoCore
import SlomoTestSupport
import Testing

/// Camera controls through the ioctl seam, against the `v4l2-ctl --list-ctrls-menus` listings of
/// two cameras: a UVC webcam whose driver uses today's names (`exposure_time_absolute`) and a
/// 120+ fps USB camera whose driver uses the older ones (`exposure_absolute`).
@Suite struct CameraControlTests {
    static func camera(_ fixture: String, name: String) throws -> (CameraControls, String) {
        let text = try EnumerationTests.recorded(fixture)
        let device = try RecordedV4L2Device(listFormatsExt: "", card: name)
        try device.loadControls(listCtrlsMenus: text)
        return (CameraControls(device: device, path: "/dev/video0", name: name), text)
    }

    static let webcam = "uvc-webcam-controls.txt", fast = "hfr-usb-camera-controls.txt"

    /// The controls read with VIDIOC_QUERYCTRL/QUERYMENU/G_CTRL print back as the listing they
    /// were recorded from, line for line: names, ids, types, ranges, steps, defaults, values,
    /// menu entries, flags and groups.
    @Test(arguments: [webcam, fast])
    func listsEveryControlExactly(fixture: String) throws {
        let (camera, text) = try Self.camera(fixture, name: "Cam")
        let controls = camera.controls()
        let printed = CameraControl.listing(controls)
        let lines = { (text: String) in text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
        print("\(fixture): \(controls.count) controls, \(controls.filter { !$0.menu.isEmpty }.count) menus, groups \(Set(controls.map(\.group)).sorted())")
        #expect(lines(printed) == lines(text))
        #expect(controls.count == (fixture == Self.webcam ? 17 : 14))
    }

    @Test func readsTheDetailsOfEachControl() throws {
        let (camera, _) = try Self.camera(Self.webcam, name: "HD Pro Webcam C920")
        let controls = Dictionary(uniqueKeysWithValues: camera.controls().map { ($0.name, $0) })
        let exposure = try #require(controls["exposure_time_absolute"])
        #expect(exposure.id == CameraControlID.exposureTime && exposure.kind == .integer)
        #expect((exposure.minimum, exposure.maximum, exposure.step, exposure.defaultValue, exposure.value) == (3, 2047, 1, 250, 250))
        #expect(exposure.flags == .inactive && exposure.group == "Camera Controls")
        let mode = try #require(controls["auto_exposure"])
        #expect(mode.kind == .menu && mode.menu.map(\.value) == [1, 3])
        #expect(mode.menu.map(\.name) == ["Manual Mode", "Aperture Priority Mode"])
        #expect(mode.describe(3) == "3 (Aperture Priority Mode)")
        let focus = try #require(controls["focus_absolute"])
        #expect(focus.step == 5 && focus.allowedValues == "0…250 in steps of 5")
        #expect(controls["white_balance_automatic"]?.kind == .boolean)
        #expect(controls["power_line_frequency"]?.allowedValues == "0: Disabled, 1: 50 Hz, 2: 60 Hz")
    }

    /// The friendly settings name the same V4L2 ids on both cameras, whatever their drivers
    /// call them, and automatic modes are switched off before the values they govern (the
    /// recorded camera refuses the value otherwise, as UVC does).
    @Test func friendlyFormsMapToEachCamerasNames() throws {
        let requests: [CameraControlRequest] = [.exposure(Rational(1, 500)), .whiteBalance(.kelvin(5000)), .flicker(.hz50)]
        for (fixture, names) in [(Self.webcam, ["auto_exposure", "white_balance_automatic", "exposure_time_absolute",
                                                "white_balance_temperature", "power_line_frequency"]),
                                 (Self.fast, ["exposure_auto", "white_balance_temperature_auto", "exposure_absolute",
                                              "white_balance_temperature", "power_line_frequency"])] {
            let (camera, _) = try Self.camera(fixture, name: "Cam")
            let setup = try camera.setup(requests, frameRate: Rational(120))
            let written = setup.assignments.map { "\($0.control.name)=\($0.value)" }
            print("\(fixture): \(written.joined(separator: " ")); notes: \(setup.notes)")
            #expect(setup.assignments.map(\.control.name) == names)
            #expect(setup.assignments.map(\.value) == [1, 0, 20, 5000, 1])
            let inForce = Dictionary(uniqueKeysWithValues: try camera.apply(setup).map { ($0.name, $0) })
            for assignment in setup.assignments { #expect(inForce[assignment.control.name]?.value == assignment.value) }
            #expect(inForce[names[2]]?.flags.contains(.inactive) == false, "manual exposure is active now")
        }
        // Focus exists on the webcam only.
        let (webcam, _) = try Self.camera(Self.webcam, name: "C920")
        let focus = try webcam.setup([.focus(.distance(40))], frameRate: nil)
        #expect(focus.assignments.map { "\($0.control.name)=\($0.value)" } == ["focus_automatic_continuous=0", "focus_absolute=40"])
        #expect(try webcam.setup([.focus(.locked)], frameRate: nil).assignments.map(\.value) == [0])
        let (fast, _) = try Self.camera(Self.fast, name: "HFR Cam")
        let noFocus = #expect(throws: CaptureError.self) { try fast.setup([.focus(.locked)], frameRate: nil) }
        print(noFocus?.description ?? "")
        #expect(noFocus?.kind == .invalidControl)
        #expect(noFocus?.description.contains("/dev/video0 (HFR Cam) has no autofocus control") == true)
    }

    /// A rate asked for turns off exposure priority where automatic exposure could lower it,
    /// and says so; with a manual exposure it is left alone.
    @Test func exposurePriorityIsTurnedOffForAFrameRate() throws {
        let (camera, _) = try Self.camera(Self.fast, name: "HFR Cam")
        let setup = try camera.setup([], frameRate: Rational(120))
        print(setup.notes)
        #expect(setup.assignments.map { "\($0.control.name)=\($0.value)" } == ["exposure_auto_priority=0"])
        #expect(setup.notes.first?.contains("could lower its rate below 120 fps") == true)
        #expect(try camera.setup([.exposure(Rational(1, 240))], frameRate: Rational(120)).assignments
            .allSatisfy { $0.control.name != "exposure_auto_priority" })
        #expect(try camera.setup([], frameRate: nil).assignments.isEmpty)
        #expect(try camera.setup([.control(name: "exposure_auto_priority", value: "1")], frameRate: Rational(120))
            .assignments.map(\.value) == [1], "the user's own choice wins")
    }

    /// Exposure in the camera's 100 µs units, rounded down so it stays inside the frame, and said.
    @Test func exposureRoundsToTheCamerasUnit() throws {
        let (camera, _) = try Self.camera(Self.fast, name: "HFR Cam")
        let setup = try camera.setup([.exposure(Rational(1, 240))], frameRate: Rational(240))
        #expect(setup.assignments.last?.value == 41)
        print(setup.notes)
        #expect(setup.notes == ["--exposure 1/240: the camera counts exposure in 100 µs, so exposure_absolute=41 (0.0041 s)"])
    }

    /// Out of range, unknown, read-only, conflicting and impossible settings: one line each,
    /// naming the option, the control and what it takes.
    @Test func refusesWhatTheCameraCannotDo() throws {
        let (camera, _) = try Self.camera(Self.webcam, name: "C920")
        let cases: [([CameraControlRequest], Rational?, String)] = [
            ([.exposure(Rational(1, 100_000))], nil, "--exposure 1/100000: shorter than /dev/video0 (C920)'s shortest exposure, 0.0003 s (exposure_time_absolute 3…2047, in 100 µs)"),
            ([.exposure(Rational(1))], nil, "--exposure 1: longer than /dev/video0 (C920)'s longest exposure, 0.2047 s"),
            ([.exposure(Rational(1, 100))], Rational(240), "--exposure 1/100: longer than a frame at 240 fps (1/240 s); the camera would lower its frame rate. Use at most --exposure 1/240"),
            ([.control(name: "brightness", value: "300")], nil, "--control brightness=300: brightness takes 0…255, not 300"),
            ([.control(name: "focus_absolute", value: "42")], nil, "focus_absolute takes 0…250 in steps of 5, not 42"),
            ([.control(name: "exposure_time_absolut", value: "20")], nil, "has no control 'exposure_time_absolut' (did you mean exposure_time_absolute?)"),
            ([.control(name: "power_line_frequency", value: "100 Hz")], nil, "power_line_frequency takes 0: Disabled, 1: 50 Hz, 2: 60 Hz, not '100 Hz'"),
            ([.control(name: "auto_exposure", value: "2")], nil, "auto_exposure takes 1: Manual Mode, 3: Aperture Priority Mode, not 2"),
            ([.torch(true)], nil, "--torch on: /dev/video0 (C920) has no torch (flash LED mode) control"),
            ([.whiteBalance(.kelvin(1000))], nil, "white_balance_temperature takes 2000…6500, not 1000"),
            ([.focus(.auto), .focus(.locked)], nil, "--focus locked sets focus_automatic_continuous to 0, but --focus auto sets it to 1"),
        ]
        for (requests, rate, expected) in cases {
            let error = #expect(throws: CaptureError.self) { try camera.setup(requests, frameRate: rate) }
            print(error?.description ?? "no error for \(requests)")
            #expect(error?.kind == .invalidControl)
            #expect(error?.description.contains(expected) == true, "\(error?.description ?? "") lacks \(expected)")
        }
        // Menu entries by name, switches by on/off.
        let named = try camera.setup([.control(name: "power_line_frequency", value: "50 hz"),
                                      .control(name: "backlight_compensation", value: "1"),
                                      .control(name: "focus_automatic_continuous", value: "off")], frameRate: nil)
        #expect(named.assignments.map(\.value) == [0, 1, 1])
        #expect(named.assignments.map(\.control.name) == ["focus_automatic_continuous", "power_line_frequency", "backlight_compensation"])
    }

    @Test func parsesTheFriendlyForms() throws {
        #expect(try CameraControlRequest.parsingExposure("1/500") == .exposure(Rational(1, 500)))
        #expect(try CameraControlRequest.parsingExposure("2ms") == .exposure(Rational(1, 500)))
        #expect(try CameraControlRequest.parsingExposure("500us") == .exposure(Rational(1, 2000)))
        #expect(try CameraControlRequest.parsingExposure("0.004") == .exposure(Rational(1, 250)))
        #expect(try CameraControlRequest.parsingFocus("locked") == .focus(.locked))
        #expect(try CameraControlRequest.parsingFocus("120") == .focus(.distance(120)))
        #expect(try CameraControlRequest.parsingWhiteBalance("5600K") == .whiteBalance(.kelvin(5600)))
        #expect(try CameraControlRequest.parsingFlicker("60") == .flicker(.hz60))
        #expect(try CameraControlRequest.parsingTorch("on") == .torch(true))
        #expect(try CameraControlRequest.parsingControl("gain=3") == .control(name: "gain", value: "3"))
        for (parse, text) in [(CameraControlRequest.parsingExposure, "fast"), (CameraControlRequest.parsingExposure, "0"),
                              (CameraControlRequest.parsingFocus, "near"), (CameraControlRequest.parsingWhiteBalance, "warm"),
                              (CameraControlRequest.parsingFlicker, "55"), (CameraControlRequest.parsingTorch, "bright"),
                              (CameraControlRequest.parsingControl, "gain")] {
            let error = #expect(throws: CaptureError.self) { try parse(text) }
            #expect(error?.kind == .invalidControl, "\(text)")
        }
    }

    /// A session sets the controls before it opens its inputs, holds the camera while it
    /// records (V4L2_PRIORITY_RECORD) and gives it back when it stops; the controls in force
    /// are in the movie's metadata, read back by ffprobe.
    @Test func aSessionSetsHoldsAndRecordsTheControls() throws {
        let (camera, _) = try Self.camera(Self.webcam, name: "HD Pro Webcam C920")
        let setup = try camera.setup([.exposure(Rational(1, 500)), .focus(.locked), .flicker(.hz50)], frameRate: Rational(60))
        let (session, take, path) = try startTestPatternRecording("camera-controls", fps: 60, configure: { session, _ in
            try session.add(camera, setup: setup)
        })
        usleep(400_000)
        let priorityWhileRecording = camera.withDevice { ($0 as? RecordedV4L2Device)?.priority }
        session.stopRunning()
        #expect(session.waitUntilFinished(timeout: 20))
        #expect(take.result?.finishedSuccessfully == true)
        let priorityAfter = camera.withDevice { ($0 as? RecordedV4L2Device)?.priority }
        print("priority while recording \(priorityWhileRecording ?? 0), after \(priorityAfter ?? 0)")
        #expect(priorityWhileRecording == 3, "V4L2_PRIORITY_RECORD")
        #expect(priorityAfter == 2, "V4L2_PRIORITY_DEFAULT")
        let tags = try FFprobe(path).format["tags"] as? [String: String] ?? [:]
        let values = CameraControls.values(inMetadata: tags["camera_controls"] ?? "")
        print("camera: \(tags["camera"] ?? "-"); camera_controls: \(tags["camera_controls"] ?? "-")")
        #expect(tags["camera"] == "HD Pro Webcam C920")
        #expect(values["auto_exposure"] == 1 && values["exposure_time_absolute"] == 20)
        #expect(values["focus_automatic_continuous"] == 0 && values["power_line_frequency"] == 1)
        #expect(values["exposure_dynamic_framerate"] == 1, "manual exposure: priority left as it was")
        #expect(values.count == 17, "every readable control in force")
    }
}
