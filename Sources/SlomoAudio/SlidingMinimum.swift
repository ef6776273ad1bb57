/// The minimum of the last `window` values pushed, in constant time a value: a monotonic queue
/// (values increasing from front to back) in a ring that never grows, so a limiter's per-sample
/// loop neither allocates nor checks exclusive access. A value: a loop keeps it in a local
/// variable (its positions), while copies share the ring, which only the last one should use.
struct SlidingMinimum {
    /// The ring's memory, freed with the last copy.
    private final class Ring {
        let mask: Int
        let indices: UnsafeMutablePointer<Int>
        let values: UnsafeMutablePointer<Float>

        init(size: Int) {
            mask = size - 1
            indices = .allocate(capacity: size)
            values = .allocate(capacity: size)
        }

        deinit {
            indices.deallocate()
            values.deallocate()
        }
    }

    private let window: Int
    private let ring: Ring
    /// Positions (before masking) of the queue's front and one past its back.
    private var head = 0, tail = 0

    /// An empty queue over the last `window` (≥ 1) pushes.
    init(window: Int) {
        precondition(window >= 1, "a sliding minimum needs a window of at least one value")
        self.window = window
        var size = 1
        while size < window + 1 { size *= 2 }
        ring = Ring(size: size)
    }

    /// The smallest of the values pushed at indices `index − window + 1 … index` of the last
    /// push (read only after a push).
    var minimum: Float { ring.values[head & ring.mask] }

    /// Pushes `value` as the value at `index`, later than every index pushed before. (Indices
    /// skipped count as values no smaller than `value`: pushing 1 at the last of several
    /// indices leaves the queue as pushing 1 at each of them would.)
    @inline(__always)
    mutating func push(_ value: Float, at index: Int) {
        let mask = ring.mask, values = ring.values, indices = ring.indices
        while tail > head && values[(tail - 1) & mask] >= value { tail -= 1 }
        values[tail & mask] = value
        indices[tail & mask] = index
        tail += 1
        while indices[head & mask] <= index - window { head += 1 }
    }
}
