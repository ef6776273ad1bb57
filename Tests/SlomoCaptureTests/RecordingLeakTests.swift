import Foundation
import SlomoCapture
import SlomoConcurrency
import SlomoMedia
import SlomoTestSupport
import Testing

// Nested in SessionTests, which is serialized: real-time sessions must not compete for the cores.
extension SessionTests {
    /// Every packet and frame a recording allocates, on its reader and writer threads, is freed.
    @Suite struct RecordingLeaks {
        @Test func aRecordingFreesEverything() throws {
            let counters = try LiveObjects.tracking {
                let (session, take, _) = try startTestPatternRecording("capture-leaks", fps: 60)
                usleep(1_000_000)
                session.stopRunning()
                #expect(session.waitUntilFinished(timeout: 20))
                #expect(take.result?.finishedSuccessfully == true)
            }
            print("recording: \(counters.allocatedFrames) frames and \(counters.allocatedPackets) packets allocated, "
                  + "\(counters.frames) and \(counters.packets) alive after")
            // A second at 60 fps: the reader's frames and the writer's packets were counted here.
            #expect(counters.allocatedFrames >= 50 && counters.allocatedPackets >= 50)
            #expect(counters.frames == 0)
            #expect(counters.packets == 0)
        }
    }
}
