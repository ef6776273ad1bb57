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

    @Test func screenSpecCarriesCornerSizeRateAndCursor() throws {
        var options = CaptureInput.ParsingOptions()
        options.size = (320, 240)
        options.frameRate = Rational(60)
        options.drawsCursor = false
        let input = try CaptureInput(parsing: "x11::99+10,20", options: options)
        #expect(input.mediaInput.url == ":99+10,20")
        #expect(input.mediaInput.format == "x11grab")
        #expect(input.mediaInput.options == ["video_size": "320x240", "framerate": "60/1", "draw_mouse": "0"])
    }

    @Test(arguments: ["testsrc", "testsrc:1280x720", "testsrc:0x0@240", "testsrc:1281x720@240", "sine:abc",
                      "webcam:/dev/video0", "v4l2:video0", "x11:", "x11::0+a,b", "url:"])
    func badInputSpecsAreExplained(spec: String) {
        do {
            _ = try CaptureInput(parsing: spec)
            Issue.record("\(spec) was accepted")
        } catch {
            #expect(error.kind == .invalidInput)
            #expect(error.description.contains(spec))
        }
    }

    @Test func formatRequests() {
        #expect(CaptureFormat.Request(parsing: "1280x720@240") == CaptureFormat.Request(width: 1280, height: 720, frameRate: Rational(240)))
        #expect(CaptureFormat.Request(parsing: "640x480")?.frameRate == nil)
        #expect(CaptureFormat.Request(parsing: "1280x720@0") == nil)
        #expect(CaptureFormat.Request(parsing: "x720@60") == nil)
    }
}
