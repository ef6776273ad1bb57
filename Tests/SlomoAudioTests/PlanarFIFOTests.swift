@testable import SlomoAudio
import Testing

/// The FIFO between a stretcher and a piece's output: frames come out in order, and one that
/// passes a long stream through holds about what is in it, not everything it has passed (each
/// new page of memory is a page fault, about 2 µs on a virtual machine).
@Suite struct PlanarFIFOTests {
    @Test func passesALongStreamThroughInOrderInBoundedMemory() {
        var fifo = PlanarFIFO(channelCount: 2)
        var appended = 0, popped = 0, misplaced = 0, largest = 0
        for step in 0..<1000 {
            fifo.append(AudioBuffer(planar: (0..<2).map { c in (0..<1000).map { Float(appended + $0) + 0.5 * Float(c) } }))
            appended += 1000
            // Take a little less than comes in, then catch up: about 2000 frames stay in it.
            let out = fifo.pop(step % 3 == 2 ? fifo.count - 2000 : 700)
            for i in 0..<out.frameCount where out.channels[0][i] != Float(popped + i) || out.channels[1][i] != Float(popped + i) + 0.5 {
                misplaced += 1
            }
            popped += out.frameCount
            largest = max(largest, fifo.storage[0].count)
        }
        #expect(misplaced == 0 && popped + fifo.count == appended)
        #expect(largest <= 2 * (PlanarFIFO.compactionThreshold + 3000), "it held \(largest) frames to pass 1 M")
    }
}
