@testable import SlomoPlayback
import Testing

/// The ring's splice, which a change of rate relies on: it replaces exactly the frames the
/// device has not taken, fades from them, labels the new frames, and refuses what it cannot do.
@Suite struct AudioRingTests {
    /// A mono ring playing at once, holding 300 frames of 1.0 labelled from item time 10 s at
    /// 1 ms a frame, 100 of them already taken by the device.
    static func playingRing() -> AudioRing {
        let ring = AudioRing(channelCount: 1, sampleRate: 1000, latencyFrames: 0, primingFrames: 0, startTime: 10)
        for block in 0..<3 { ring.append([Float](repeating: 1, count: 100), itemTime: 10 + Double(block) * 0.1, itemPerFrame: 0.001) }
        ring.setPaused(false)
        _ = take(ring, 100)
        return ring
    }

    static func take(_ ring: AudioRing, _ frames: Int) -> [Float] {
        var out = [Float](repeating: -1, count: frames)
        out.withUnsafeMutableBufferPointer { ring.render(into: $0.baseAddress!, frames: frames) }
        return out
    }

    @Test func spliceReplacesTheUntakenFramesAndFadesIn() {
        let ring = Self.playingRing()
        #expect(ring.queuePositions() == (next: 100, end: 300))
        #expect(ring.itemTime(ofQueued: 150).map { abs($0 - 10.15) < 1e-12 } == true)
        #expect(ring.itemTime(ofQueued: 99) == nil && ring.itemTime(ofQueued: 300) == nil)
        // New frames of 0.0 from frame 150 on, at half the pace, faded in over 10 frames.
        #expect(ring.splice([Float](repeating: 0, count: 40), at: 150, itemTime: 10.15, itemPerFrame: 0.0005, fade: 10))
        #expect(ring.queuePositions() == (next: 100, end: 190))
        #expect(ring.itemTime(ofQueued: 170).map { abs($0 - 10.16) < 1e-12 } == true)
        let heard = Self.take(ring, 100)
        #expect(heard[..<50].allSatisfy { $0 == 1 })
        let fade = Array(heard[50..<60])
        #expect(zip(fade, fade.dropFirst()).allSatisfy { $0 > $1 } && fade.first! < 1 && fade.last! > 0)
        #expect(heard[60..<90].allSatisfy { $0 == 0 })
        #expect(heard[90...].allSatisfy { $0 == 0 }, "silence after the spliced frames")
        #expect(ring.underruns == 1)
    }

    @Test func spliceRefusesTakenFramesAndAShortQueue() {
        let ring = Self.playingRing()
        let new = [Float](repeating: 0, count: 40)
        #expect(!ring.splice(new, at: 99, itemTime: 0, itemPerFrame: 0.001, fade: 10), "the device has taken frame 99")
        #expect(!ring.splice(new, at: 295, itemTime: 0, itemPerFrame: 0.001, fade: 10), "5 frames queued from 295, 10 to fade from")
        #expect(!ring.splice([0, 0], at: 200, itemTime: 0, itemPerFrame: 0.001, fade: 10), "2 new frames, 10 to fade into")
        #expect(ring.queuePositions() == (next: 100, end: 300))
        #expect(Self.take(ring, 200).allSatisfy { $0 == 1 })
        // At the device's very next frame, a splice replaces everything queued.
        ring.append([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], itemTime: 20, itemPerFrame: 0.001)
        #expect(ring.splice(new, at: 300, itemTime: 30, itemPerFrame: 0.001, fade: 10))
        #expect(ring.queuePositions() == (next: 300, end: 340))
        #expect(ring.itemTime(ofQueued: 300) == 30)
    }
}
