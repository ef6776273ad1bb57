import Foundation
@testable import SlomoPlayback
import SlomoConcurrency
import Synchronization
import Testing

/// The ring between two real threads, as the feed and SDL's audio thread use it: whatever the
/// interleaving, the device plays each queued stream's frames in order, without a gap inside a
/// stream, and once it has played a spliced stream it never plays what the splice replaced.
@Suite struct AudioRingThreadTests {
    /// Stream `k` (the first, then the k-th splice) plays the values `k * streamStep + i`.
    static let streamStep: Float = 1_000_000

    @Test func feedAndDeviceOnTheirOwnThreads() throws {
        let ring = AudioRing(channelCount: 1, sampleRate: 48000, latencyFrames: 0, primingFrames: 0, startTime: 0)
        ring.setPaused(false)
        let done = Atomic<Bool>(false)
        let heard = Mutex<[Float]>([])
        let device = PipelineWorker("ring device") {
            var played: [Float] = []
            var buffer = [Float](repeating: 0, count: 256)
            while !done.load(ordering: .acquiring) || ring.queuedFrames > 0 {
                buffer.withUnsafeMutableBufferPointer { ring.render(into: $0.baseAddress!, frames: $0.count) }
                played += buffer.filter { $0 != 0 }
                usleep(200)
            }
            heard.withLock { $0 = played }
        }
        var splices = 0
        var stream: Float = 0, next: Float = 1
        for block in 0..<400 {
            if block % 40 == 39 {
                // A new stream from the device's next frame, at once.
                let values = (0..<256).map { (stream + 1) * Self.streamStep + 1 + Float($0) }
                let position = ring.queuePositions().next
                if ring.splice(values, at: position, itemTime: Double(position), itemPerFrame: 1, fade: 0) {
                    stream += 1
                    next = values.last! + 1
                    splices += 1
                }
            }
            while !ring.wantsFrames(below: 2048, block: 256) { ring.waitForDemand(below: 2048, block: 256) }
            ring.append((0..<256).map { next + Float($0) }, itemTime: 0, itemPerFrame: 1)
            next += 256
        }
        done.store(true, ordering: .releasing)
        #expect(device.join() == nil)
        let played = heard.withLock { $0 }
        print("ring between threads: \(played.count) frames played, \(splices) splices, \(ring.underruns) underruns")
        #expect(splices > 0)
        var previous: Float = 0
        for value in played {
            let sameStream = (value / Self.streamStep).rounded(.down) == (previous / Self.streamStep).rounded(.down)
            #expect(sameStream ? value == previous + 1 : value > previous, "\(previous) then \(value)")
            previous = value
        }
        #expect(previous == next - 1, "the last frame queued is played last")
    }
}
