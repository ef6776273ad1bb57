/// The bins of a frame still waiting for their synthesis phase in heap integration, as a
/// bitmap: testing and removing a bin are single-word operations, and finding the loudest bin
/// left (where a new island of energy starts) skips 64 finished bins at a time instead of
/// checking each.
///
/// A class over a buffer it owns, like `BucketQueue`: it is touched for every bin a few times a
/// frame.
final class PendingBins {
    let binCount: Int
    private let wordCount: Int
    /// Bit k % 64 of word k / 64: bin k is pending.
    private let words: UnsafeMutablePointer<UInt64>

    init(binCount: Int) {
        self.binCount = binCount
        wordCount = (binCount + 63) / 64
        words = .allocate(capacity: wordCount)
        words.initialize(repeating: 0, count: wordCount)
    }

    deinit { words.deallocate() }

    /// No bin pending.
    func removeAll() { words.update(repeating: 0, count: wordCount) }

    @inline(__always)
    func insert(_ bin: Int) { words[bin >> 6] |= 1 << UInt64(bin & 63) }

    @inline(__always)
    func remove(_ bin: Int) { words[bin >> 6] &= ~(1 << UInt64(bin & 63)) }

    @inline(__always)
    func contains(_ bin: Int) -> Bool { words[bin >> 6] & (1 << UInt64(bin & 63)) != 0 }

    /// The pending bin whose `magnitude` is largest (the lowest such bin on a tie); nil when
    /// none is pending.
    func loudest(by magnitude: UnsafePointer<Float>) -> Int? {
        var loudest = -1
        var largest: Float = 0
        for w in 0..<wordCount {
            var word = words[w]
            while word != 0 {
                let k = w << 6 + word.trailingZeroBitCount
                word &= word - 1
                if loudest < 0 || magnitude[k] > largest {
                    loudest = k
                    largest = magnitude[k]
                }
            }
        }
        return loudest < 0 ? nil : loudest
    }
}
