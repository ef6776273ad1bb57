@testable import SlomoAudio
import Testing

/// The heap integrator's pending bins: a new island starts at the loudest bin still pending,
/// the lowest one on a tie, as the scan over every bin it replaced chose.
@Suite struct PendingBinsTests {
    @Test func loudestPendingBinAcrossWords() {
        let bins = PendingBins(binCount: 2049)
        var magnitude = [Float](repeating: 0, count: 2049)
        for (k, m) in [(3, 0.5), (63, 2), (64, 2), (700, 1.5), (2048, 3)] as [(Int, Float)] { magnitude[k] = m }
        #expect(magnitude.withUnsafeBufferPointer { bins.loudest(by: $0.baseAddress!) } == nil)
        for k in [3, 63, 64, 700, 2048] { bins.insert(k) }
        func loudest() -> Int? { magnitude.withUnsafeBufferPointer { bins.loudest(by: $0.baseAddress!) } }
        #expect(loudest() == 2048)
        bins.remove(2048)
        #expect(!bins.contains(2048) && bins.contains(64))
        #expect(loudest() == 63)    // 63 and 64 tie: the lower wins
        bins.remove(63)
        #expect(loudest() == 64)
        bins.removeAll()
        #expect(loudest() == nil && !bins.contains(3))
    }
}
