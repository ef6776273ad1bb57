import SlomoCapture
import SlomoCore
import Testing

@Suite struct ModelTests {
    @Test func restamperKeepsTheSourceSpacingFromTheFirstArrival() {
        var restamper = SourceRestamper(timeBase: Rational(1, 240))
        // The source counts from 1000 frames; it arrives 5 ms into the session, with jitter.
        let times = (0..<10).map { restamper.sessionTime(pts: 1000 + Int64($0), arrival: 5_000_000 + Int64($0) * 4_000_000 + ($0 % 2 == 0 ? 300_000 : 0)) }
        #expect(times.first == 5_300_000)
        #expect(zip(times.dropFirst(), times).allSatisfy { abs(($0 - $1) - 4_166_667) <= 1 })
    }

    @Test func restamperReanchorsAfterAClockJumpAndStaysIncreasing() {
        var restamper = SourceRestamper(timeBase: Rational(1, 1_000_000))
        let wallClock: Int64 = 1_763_000_000_000_000  // x11grab-style wall-clock microseconds
        let a = restamper.sessionTime(pts: wallClock, arrival: 1_000_000)
        let b = restamper.sessionTime(pts: wallClock + 16_667, arrival: 17_000_000)
        // The wall clock is set back an hour: the mapping re-anchors instead of going back.
        let c = restamper.sessionTime(pts: wallClock - 3_600_000_000, arrival: 34_000_000)
        let d = restamper.sessionTime(pts: nil, arrival: 20_000_000)
        #expect(a == 1_000_000)
        #expect(b == 1_000_000 + 16_667_000)
        #expect(c == 34_000_000)
        #expect(d == c + 1)
        #expect(restamper.reanchorCount == 1)
    }

    @Test(arguments: [
        ("testsrc:1280x720@240", CaptureInput.Kind.testPattern, false),
        ("sine:440", .sine, true),
        ("x11::99+10,20", .screen, false),
        ("v4l2:/dev/video0", .camera, false),
        ("url:udp://127.0.0.1:5000", .url, false),
        ("pulse:default", .pulse, true),
        ("alsa:hw:1,0", .alsa, true),
    ])
    func inputSpecsParse(spec: String, kind: CaptureInput.Kind, audio: Bool) throws {
        let input = try CaptureInput(parsing: spec)
        #expect(input.kind == kind)
        #expect(input.isAudio == audio)
    }

    /// Issue 16, item 9: the rectangle and rate of a screen are written in its input, like
    /// testsrc's (`x11::99+10,20/320x240@60`); `--size` is the recorded picture's, as in export.
    @Test func screenSpecCarriesCornerSizeRateAndCursor() throws {
        var options = CaptureInput.ParsingOptions()
        options.drawsCursor = false
        let input = try CaptureInput(parsing: "x11::99+10,20/320x240@60", options: options)
        #expect(input.mediaInput.url == ":99+10,20")
        #expect(input.mediaInput.format == "x11grab")
        #expect(input.mediaInput.options == ["video_size": "320x240", "framerate": "60/1", "draw_mouse": "0"])
        let whole = try CaptureInput(parsing: "x11::0")
        #expect(whole.mediaInput.url == ":0" && whole.mediaInput.options["framerate"] == "30/1")
        #expect(whole.mediaInput.options["video_size"] == nil)
        // The NTSC decimal is the exact NTSC rate, as everywhere a rate is typed.
        #expect(try CaptureInput(parsing: "x11::0@29.97").mediaInput.options["framerate"] == "30000/1001")
    }

    @Test(arguments: ["testsrc", "testsrc:1280x720", "testsrc:0x0@240", "testsrc:1281x720@240", "sine:abc",
                      "webcam:/dev/video0", "v4l2:video0", "x11:", "x11::0+a,b", "x11::0/321x240", "x11::0@0",
                      "x11::0/320x240@", "x11:/320x240", "url:"])
    func badInputSpecsAreExplained(spec: String) {
        do {
            _ = try CaptureInput(parsing: spec)
            Issue.record("\(spec) was accepted")
        } catch {
            #expect(error.kind == .invalidInput)
            #expect(error.description.contains(spec))
        }
    }

    /// The session's own limits are the library's to check, before anything is opened (issue 17).
    @Test(arguments: [(Setting.openTimeout, 0.0), (.stallTimeout, -1), (.openTimeout, .infinity)])
    func sessionTimeoutsMustBePositive(setting: Setting, seconds: Double) throws {
        let session = CaptureSession()
        try session.add(.sine(frequency: 440))
        if setting == .openTimeout { session.openTimeout = seconds } else { session.stallTimeout = seconds }
        let error = try #require(throws: CaptureError.self) { try session.startRunning() }
        #expect(error.kind == .invalidLimit)
        #expect(error.issue?.setting == setting, "\(error)")
        #expect(error.issue?.allowed == SettingIssue.positive, "the range as data")
        #expect(error.description.contains("positive number of seconds"), "\(error)")
        #expect(session.currentState == .configuring, "a refused start leaves the session as it was")
    }

    @Test func formatRequests() {
        #expect(CaptureFormat.Request(parsing: "1280x720@240") == CaptureFormat.Request(width: 1280, height: 720, frameRate: Rational(240)))
        #expect(CaptureFormat.Request(parsing: "640x480")?.frameRate == nil)
        #expect(CaptureFormat.Request(parsing: "1280x720@0") == nil)
        #expect(CaptureFormat.Request(parsing: "x720@60") == nil)
    }
}

/// The recording time line: pauses leave no gap, inputs shift together.
@Suite struct RecordingTimelineTests {
    @Test func resumeContinuesOneIntervalAfterTheLastSample() {
        var timeline = RecordingTimeline()
        let frame: Int64 = 4_166_667
        let before = (0..<10).compactMap { timeline.place(1_000_000 + Int64($0) * frame, input: 0) }
        timeline.pause()
        let during = (10..<250).compactMap { timeline.place(1_000_000 + Int64($0) * frame, input: 0) }
        timeline.resume()
        let after = (250..<260).compactMap { timeline.place(1_000_000 + Int64($0) * frame, input: 0) }
        #expect(before.first == 0)
        #expect(during.isEmpty)
        let times = before + after
        #expect(times.count == 20)
        #expect(zip(times.dropFirst(), times).allSatisfy { $0 - $1 == frame }, "no gap where the pause was")
        #expect(timeline.pausedNanoseconds == 240 * frame)
    }

    @Test func otherInputsShiftByTheSameAmount() {
        var timeline = RecordingTimeline()
        // Video every 10 ms, sound every 20 ms; paused for one second.
        _ = timeline.place(0, input: 0)
        _ = timeline.place(5_000_000, input: 1)
        _ = timeline.place(10_000_000, input: 0)
        timeline.pause()
        timeline.resume()
        // The pause ends when the first sample after it comes, 1.01 s later.
        let video = timeline.place(1_020_000_000, input: 0)
        let sound = timeline.place(1_025_000_000, input: 1)
        #expect(video == 20_000_000)
        #expect(sound == 25_000_000, "sound keeps its place relative to the picture")
    }

    @Test func copiedVideoResumesAtAKeyframe() {
        var timeline = RecordingTimeline()
        _ = timeline.place(0, input: 0)
        _ = timeline.place(10_000_000, input: 0)
        timeline.pause()
        timeline.resume(keyframeInputs: [0])
        #expect(timeline.place(500_000_000, input: 0, isKeyframe: false) == nil)
        #expect(timeline.place(510_000_000, input: 0, isKeyframe: true) == 20_000_000)
        #expect(timeline.place(520_000_000, input: 0, isKeyframe: false) == 30_000_000)
    }

    @Test func pausingBeforeTheFirstSampleStartsAtItsResume() {
        var timeline = RecordingTimeline()
        timeline.pause()
        #expect(timeline.place(100, input: 0) == nil)
        timeline.resume()
        #expect(timeline.place(5_000, input: 0) == 0)
        #expect(timeline.pausedNanoseconds == 0)
    }
}
