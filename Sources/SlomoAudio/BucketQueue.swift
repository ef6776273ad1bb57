/// A max-priority queue of small integer items keyed by quantised priority (0 ..< bucketCount):
/// what phase-gradient heap integration needs instead of a binary heap. Push and pop are
/// O(1) (pop walks down over empty buckets, at most `bucketCount` steps a frame in all), each
/// item may be queued once between `clear()`s, and nothing is allocated after `init`.
/// Items of equal priority come out last-in first-out.
struct BucketQueue {
    let bucketCount: Int
    private var heads: [Int32]
    private var next: [Int32]
    /// No bucket above this one holds an item.
    private var top = -1

    init(bucketCount: Int, itemCount: Int) {
        self.bucketCount = bucketCount
        heads = Array(repeating: -1, count: bucketCount)
        next = Array(repeating: -1, count: itemCount)
    }

    mutating func clear() {
        while top >= 0 {
            heads[top] = -1
            top -= 1
        }
    }

    /// Queues `item` with `priority` (clamped to 0 ..< bucketCount).
    mutating func push(_ item: Int, priority: Int) {
        let b = min(max(priority, 0), bucketCount - 1)
        next[item] = heads[b]
        heads[b] = Int32(item)
        if b > top { top = b }
    }

    /// The item of highest priority, removed; nil when empty.
    mutating func pop() -> Int? {
        while top >= 0 {
            let h = heads[top]
            if h >= 0 {
                heads[top] = next[Int(h)]
                return Int(h)
            }
            top -= 1
        }
        return nil
    }
}
