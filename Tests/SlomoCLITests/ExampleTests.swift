import Foundation
import SlomoCore
import SlomoTestSupport
import Testing

/// The `Examples/` run as a user would run them, judged by ffprobe.
@Suite struct ExampleTests {
    @Test func retimeExampleSlowsTwoSecondsToQuarterSpeed() throws {
        let input = try Fixture.flashAndBeep.path
        let output = try FixtureCache.shared.scratchFolder("example-retime").appendingPathComponent("slow.mov").path
        let result = try runCommand(try Slomo.builtExecutable("RetimeExample"), [input, output])
        #expect(result.status == 0, "\(result.standardError)")
        let line = try #require(result.standardOutput.split(separator: "\n").last { $0.hasPrefix("wrote ") })
        let printed = try #require(Double(line.split(separator: " ").dropLast().last ?? ""))
        let video = try #require(try FFprobe(output).stream("video"))
        let duration = try #require((video["duration"] as? String).flatMap(Double.init))
        let inputDuration = try #require((try FFprobe(input).stream("video")?["duration"] as? String).flatMap(Double.init))
        print("RetimeExample: \(line); video stream \(duration) s (input \(inputDuration) s)")
        // 2 s at a quarter of the speed add 6 s; each 0.2 s ramp between rates 1 and 0.25 lasts
        // 0.2 · (1 + 4) / 2 = 0.5 s instead of 0.8 s: 5.4 s longer in all.
        #expect(abs(duration - printed) < 0.05)
        #expect(abs(duration - inputDuration - 5.4) < 0.01)
        #expect(result.standardOutput.contains("100 %"))
    }

    /// EditScriptExample changes a script's section and exports it with the script's own output
    /// settings, read by the library: the same movie `slomo export` makes of the changed script.
    @Test func editScriptExampleExportsLikeTheCommand() throws {
        let folder = try FixtureCache.shared.scratchFolder("example-script")
        let source = try Fixture.flashAndBeep.path
        let output = "output:\n  mode: cfr\n  fps: 30\n  codec: h264\n  frames: nearest\n  audio:\n    algorithm: varispeed\n"
        let script = folder.appendingPathComponent("edit.yaml").path
        try Data("slomo: 1\nclips:\n  - source: \(source)\n    sections: [\"2-4x0.25\"]\n\(output)".utf8)
            .write(to: URL(fileURLWithPath: script))
        let changed = folder.appendingPathComponent("changed.yaml").path
        try Data("slomo: 1\nclips:\n  - source: \(source)\n    sections: [\"2-4x0.5\"]\n\(output)".utf8)
            .write(to: URL(fileURLWithPath: changed))

        let fromLibrary = folder.appendingPathComponent("library.mp4").path
        let example = try runCommand(try Slomo.builtExecutable("EditScriptExample"), [script, "0.5", fromLibrary])
        #expect(example.status == 0, "\(example.standardError)\(example.standardOutput)")
        #expect(example.standardOutput.contains("first section now 2-4x0.5"))
        let fromCommand = folder.appendingPathComponent("command.mp4").path
        let command = try Slomo.run(["export", changed, "-o", fromCommand, "--quiet"])
        #expect(command.status == 0, "\(command.standardError)")

        for path in [fromLibrary, fromCommand] {
            let video = try #require(try FFprobe(path).stream("video"))
            #expect(video["codec_name"] as? String == "h264" && video["r_frame_rate"] as? String == "30/1")
            #expect(try FFprobe.packets(path).count == 360, "12 s at 30 fps")
        }
        print("EditScriptExample: \(example.standardOutput.split(separator: "\n").last ?? "")")
    }

    /// CaptureExample records 3 s of a 120 fps test pattern while a frame callback counts the
    /// frames; what it prints agrees with the file (frames written) and with its counters.
    @Test func captureExampleRecordsAndCounts() throws {
        let output = try FixtureCache.shared.scratchFolder("example-capture").appendingPathComponent("take.mov").path
        let result = try runCommand(try Slomo.builtExecutable("CaptureExample"), [output])
        #expect(result.status == 0, "\(result.standardError)\(result.standardOutput)")
        let recorded = try #require(result.standardOutput.firstMatch(of: /recorded .*: (\d+\.\d\d) s, (\d+) frames/))
        let seen = try #require(result.standardOutput.firstMatch(of: /callback saw (\d+) of (\d+) frames/))
        print("CaptureExample: \(result.standardOutput.replacingOccurrences(of: "\n", with: " | "))")
        #expect(abs(Double(recorded.1)! - 3) < 0.05)
        #expect(try FFprobe.packets(output).count == Int(recorded.2)!)
        #expect(Int(recorded.2)! > 300, "most of 360 frames recorded")
        #expect(Int(seen.1)! <= Int(seen.2)! && Int(seen.1)! > 0)
    }

    /// FrameWriterExample draws 3 s of a bouncing ball at 60 fps with a click every second and
    /// writes them with `MovieWriter`: 180 pictures on the exact 1/60 grid, the clicks at 0, 1
    /// and 2 s, and a progress line that reaches 100 %.
    @Test func frameWriterExampleWritesItsAnimation() throws {
        let output = try FixtureCache.shared.scratchFolder("example-frame-writer").appendingPathComponent("ball.mp4").path
        let result = try runCommand(try Slomo.builtExecutable("FrameWriterExample"), [output])
        #expect(result.status == 0, "\(result.standardError)\(result.standardOutput)")
        #expect(result.standardOutput.contains("frame 180 of 180, 100 %"), "\(result.standardOutput)")
        let video = try #require(try FFprobe(output).stream("video"))
        #expect(video["codec_name"] as? String == "h264" && video["r_frame_rate"] as? String == "60/1")
        let timeBase = try #require((video["time_base"] as? String).flatMap { Rational(decimal: $0) })
        let times = try FFprobe.packets(output).map { Rational($0.pts) * timeBase }.sorted()
        #expect(times == (0..<180).map { Rational(Int64($0), 60) })
        let clicks = try SyncProbe.beepOnsets(output)
        print("FrameWriterExample: \(result.standardOutput.split(separator: "\n").last ?? ""); clicks at \(clicks) s")
        #expect(clicks.count == 3 && zip(clicks, [0.0, 1, 2]).allSatisfy { abs($0 - $1) < 0.002 }, "\(clicks)")
        try Self.expectDrawing(output)
    }

    /// The pictures show what the example draws: the white ball where its bounce puts it
    /// (centre (30 + bounce(7n, 580), 30 + bounce(4n, 300)), radius 30) and the yellow frame
    /// number, whose width grows with its digits (28 px a digit from x = 20).
    private static func expectDrawing(_ path: String) throws {
        let (status, data, _) = try runCapturingFiles("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-f", "rawvideo",
                                                                 "-pix_fmt", "gray", "-"])
        let size = 640 * 360
        try #require(status == 0 && data.count == 180 * size)
        let luma = [UInt8](data)
        func bounce(_ position: Int, _ span: Int) -> Int { let p = position % (2 * span); return p < span ? p : 2 * span - p }
        for n in [45, 100, 179] {
            let frame = luma[n * size ..< (n + 1) * size]
            var (sumX, sumY, count, digitsRight) = (0, 0, 0, 0)
            for y in 0..<360 {
                for x in 0..<640 {
                    let value = frame[n * size + y * 640 + x]
                    if value > 225 { (sumX, sumY, count) = (sumX + x, sumY + y, count + 1) }
                    // Yellow (255, 210, 0) is luma ≈ 187 in limited range; the background is ≈ 30.
                    if (150...215).contains(value), y < 64, x < 120 { digitsRight = max(digitsRight, x) }
                }
            }
            let expected = (x: 30 + bounce(7 * n, 580), y: 30 + bounce(4 * n, 300))
            let centre = (x: Double(sumX) / Double(max(count, 1)), y: Double(sumY) / Double(max(count, 1)))
            let digitsEnd = 20 + String(n).count * 28 - 8
            print("frame \(n): ball at (\(centre.x), \(centre.y)), \(count) px, expected \(expected); digits end at x \(digitsRight)")
            #expect(abs(centre.x - Double(expected.x)) < 1.5 && abs(centre.y - Double(expected.y)) < 1.5)
            #expect(abs(Double(count) - Double.pi * 900) < 200, "the ball's area")
            #expect(abs(digitsRight - digitsEnd) <= 2, "frame \(n)'s number ends at x \(digitsRight), expected \(digitsEnd)")
        }
    }

    /// PlayerExample plays a composition with a slowed second, headless, and doubles the rate
    /// from Swift once the slowed part is over: 1 s + 4 s at rate 1, then 8 s of output at 2x
    /// is about 9 s of sound.
    @Test func playerExamplePlaysAndChangesRate() throws {
        let folder = try FixtureCache.shared.scratchFolder("example-player")
        defer { try? FileManager.default.removeItem(at: folder) }
        let heard = folder.appendingPathComponent("heard.f32").path
        let result = try runCommand(try Slomo.builtExecutable("PlayerExample"), [try Fixture.longFlashAndBeep.path],
                                    environment: ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": heard])
        #expect(result.status == 0, "\(result.standardError)\(result.standardOutput)")
        print("PlayerExample: \(result.standardOutput.split(separator: "\n").suffix(3).joined(separator: " | "))")
        #expect(result.standardOutput.contains("rate 2.00x  varispeed"))
        #expect(result.standardOutput.contains("played to the end"))
        let seconds = Double(try Data(contentsOf: URL(fileURLWithPath: heard)).count / 8) / 48000
        #expect(abs(seconds - 9) < 1, "\(seconds) s of sound")
    }
}
