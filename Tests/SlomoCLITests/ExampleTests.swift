import Foundation
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
}
