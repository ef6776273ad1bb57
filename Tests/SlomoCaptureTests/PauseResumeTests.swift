import Foundation
import SlomoCapture
import SlomoCore
import SlomoTestSupport
import Testing

// Nested in SessionTests, which is serialized: real-time sessions must not compete for the cores.
extension SessionTests {
    /// `pauseRecording()` / `resumeRecording()` on a real-time 120 fps source.
    @Suite struct PauseResume {
        @Test func aPauseLeavesNoGapAndIsNotCountedAsDrops() throws {
            let (session, take, path) = try startTestPatternRecording("capture-pause", fps: 120) {
                $0.fragmentInterval = .seconds(0.5)
            }
            let started = Date()
            usleep(1_000_000)
            take.pauseRecording()
            let pausedAt = Date()
            #expect(take.isRecordingPaused)
            usleep(1_000_000)
            take.resumeRecording()
            let pause = Date().timeIntervalSince(pausedAt)
            #expect(!take.isRecordingPaused)
            usleep(1_000_000)
            session.stopRunning()
            let elapsed = Date().timeIntervalSince(started)
            #expect(session.waitUntilFinished(timeout: 20))
            let result = try #require(take.result)
            let times = try videoPacketTimes(path)
            let intervals = zip(times.dropFirst(), times).map { $0 - $1 }
            let duration = Double(try FFprobe(path).format["duration"] as? String ?? "") ?? 0
            print("pause: \(times.count) frames written, \(result.counters), paused \(result.pausedSeconds) s "
                  + "(\(pause) s by the clock), file \(duration) s of \(elapsed) s, largest interval \(intervals.max() ?? 0)")
            #expect(result.finishedSuccessfully)
            #expect(times.count == result.videoFrames)
            #expect(result.counters.isConsistent)
            #expect(result.counters.received == result.videoFrames + result.counters.dropped)
            // The source's own clock is the judge: lavfi lags behind the wall clock on a loaded
            // machine, so a one-second pause by the clock may leave out fewer frames than 120.
            let skipped = result.counters.skippedWhilePaused
            #expect(skipped >= 60, "about a second of frames left out")
            #expect(abs(result.pausedSeconds - Double(skipped) / 120) <= 1.5 / 120, "the pause is exactly the frames left out")
            #expect(intervals.allSatisfy { $0 > 0 }, "strictly increasing")
            #expect((intervals.max() ?? 1) <= 1.0 / 120 + 0.0001, "no gap larger than a frame interval")
            #expect(abs(duration - Double(result.counters.received) / 120) <= 1.5 / 120,
                    "the file lasts the frames recorded (written or dropped), without the pause")
        }
    }
}
