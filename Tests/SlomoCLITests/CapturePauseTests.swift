import Foundation
import SlomoTestSupport
import Testing

// Nested in CaptureCommandTests, which is serialized: capture tests measure timing and must
// not compete with each other for the two cores.
extension CaptureCommandTests {
    /// `slomo capture` paused with SIGUSR1 and resumed with SIGUSR2.
    @Suite struct Pause {
        @Test func signalsPauseAndResumeOneContinuousRecording() throws {
            let folder = try FixtureCache.shared.scratchFolder("capture-pause-cli")
            let path = folder.appendingPathComponent("take.mp4").path
            let recorder = try BackgroundCommand(try Slomo.executable,
                                                 ["capture", "--input", "testsrc:320x180@60", "-o", path, "--progress", "json"])
            #expect(recorder.waitForError(containing: "\"event\":\"status\""))
            usleep(1_000_000)
            kill(recorder.process.processIdentifier, SIGUSR1)
            #expect(recorder.waitForError(containing: "\"paused\":true", timeout: 5), "the status says it is paused")
            usleep(1_000_000)
            kill(recorder.process.processIdentifier, SIGUSR2)
            usleep(1_000_000)
            recorder.process.interrupt()
            let (status, stderr) = recorder.wait()
            #expect(status == 0, "\(stderr)")
            let finished = try CaptureCommandTests.finishedLine(stderr)
            let times = try CaptureCommandTests.videoTimes(path)
            let intervals = zip(times.dropFirst(), times).map { $0 - $1 }
            let skipped = finished["skippedWhilePaused"] as? Int ?? 0
            let paused = finished["pausedSeconds"] as? Double ?? 0
            print("paused by signal: \(times.count) frames, largest interval \(intervals.max() ?? 0) s, \(finished)")
            #expect(finished["reason"] as? String == "stopped")
            #expect(skipped >= 30, "about a second of frames left out")
            #expect(abs(paused - Double(skipped) / 60) <= 1.5 / 60)
            #expect(times.count == finished["frames"] as? Int)
            #expect(intervals.allSatisfy { $0 > 0 && $0 <= 1.0 / 60 + 0.0001 }, "one time line without a gap")
            #expect(try CaptureCommandTests.decodeErrors(path).isEmpty)
        }
    }
}
