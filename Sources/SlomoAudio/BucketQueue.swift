/// A max-priority queue of small integer items keyed by quantised priority (0 ..< bucketCount):
/// what phase-gradient heap integration needs instead of a binary heap. Push is O(1); pop is
/// O(1) plus, when it empties the top bucket, a scan of a bitmap of the occupied buckets, a word
/// (64 buckets) at a time. Each item may be queued once between `clear()`s, and nothing is
/// allocated after `init`. Items of equal priority come out last-in first-out.
///
/// A class over buffers it owns rather than a struct of arrays: it is pushed and popped a few
/// thousand times a frame, and arrays would check their uniqueness and bounds on every one.
final class BucketQueue {
    let bucketCount: Int
    let itemCount: Int
    /// The last item pushed into each bucket (-1: empty), and the item pushed before each.
    private let heads: UnsafeMutablePointer<Int32>
    private let next: UnsafeMutablePointer<Int32>
    /// Bit b of word b / 64: bucket b holds an item.
    private let occupied: UnsafeMutablePointer<UInt64>
    private let wordCount: Int
    /// The highest bucket holding an item, -1 when none does.
    private var top = -1

    init(bucketCount: Int, itemCount: Int) {
        self.bucketCount = bucketCount
        self.itemCount = itemCount
        heads = .allocate(capacity: bucketCount)
        heads.initialize(repeating: -1, count: bucketCount)
        next = .allocate(capacity: itemCount)
        next.initialize(repeating: -1, count: itemCount)
        wordCount = (bucketCount + 63) / 64
        occupied = .allocate(capacity: wordCount)
        occupied.initialize(repeating: 0, count: wordCount)
    }

    deinit {
        heads.deallocate()
        next.deallocate()
        occupied.deallocate()
    }

    func clear() {
        for w in 0..<wordCount {
            var word = occupied[w]
            while word != 0 {
                heads[w << 6 + word.trailingZeroBitCount] = -1
                word &= word - 1
            }
            occupied[w] = 0
        }
        top = -1
    }

    /// Queues `item` (0 ..< itemCount) with `priority` (clamped to 0 ..< bucketCount).
    @inline(__always)
    func push(_ item: Int, priority: Int) {
        assert(item >= 0 && item < itemCount, "item beyond the queue's size")
        let b = min(max(priority, 0), bucketCount - 1)
        next[item] = heads[b]
        heads[b] = Int32(truncatingIfNeeded: item)
        occupied[b >> 6] |= 1 << UInt64(b & 63)
        if b > top { top = b }
    }

    /// The item of highest priority, removed; nil when empty.
    @inline(__always)
    func pop() -> Int? {
        guard top >= 0 else { return nil }
        let item = Int(heads[top])
        let rest = next[item]
        heads[top] = rest
        if rest < 0 {
            occupied[top >> 6] &= ~(1 << UInt64(top & 63))
            top = highestOccupied(atMost: top)
        }
        return item
    }

    /// The highest occupied bucket at or below `bucket` (none above it is), -1 when none is.
    private func highestOccupied(atMost bucket: Int) -> Int {
        var w = bucket >> 6
        while w >= 0 {
            let word = occupied[w]
            if word != 0 { return w << 6 + 63 - word.leadingZeroBitCount }
            w -= 1
        }
        return -1
    }
}
