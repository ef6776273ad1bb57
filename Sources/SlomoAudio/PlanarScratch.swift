/// Scratch memory for handing channel blocks to C: `channelCount` contiguous planar blocks of
/// `capacity` frames, plus an array of their pointers, allocated once.
final class PlanarScratch {
    let channelCount: Int
    let capacity: Int
    let base: UnsafeMutablePointer<Float>
    let pointers: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    let constPointers: UnsafeMutablePointer<UnsafePointer<Float>?>

    init(channelCount: Int, capacity: Int) {
        self.channelCount = channelCount
        self.capacity = capacity
        base = .allocate(capacity: channelCount * capacity)
        base.initialize(repeating: 0, count: channelCount * capacity)
        pointers = .allocate(capacity: channelCount)
        constPointers = .allocate(capacity: channelCount)
        for c in 0..<channelCount {
            pointers[c] = base + c * capacity
            constPointers[c] = UnsafePointer(base + c * capacity)
        }
    }

    deinit {
        base.deallocate()
        pointers.deallocate()
        constPointers.deallocate()
    }

    func channel(_ c: Int) -> UnsafeMutablePointer<Float> { base + c * capacity }

    /// Copies frames `start ..< start + n` of `buffer` into the scratch blocks.
    func load(_ buffer: AudioBuffer, from start: Int, count n: Int) {
        for c in 0..<channelCount {
            buffer.channels[c].withUnsafeBufferPointer { src in
                channel(c).update(from: src.baseAddress! + start, count: n)
            }
        }
    }

    /// Zeros the first `n` frames of every block.
    func zero(_ n: Int) {
        for c in 0..<channelCount { channel(c).update(repeating: 0, count: n) }
    }

    /// Appends the first `n` frames of every block to `fifo`.
    func store(_ n: Int, into fifo: inout PlanarFIFO) {
        fifo.append((0..<channelCount).map { UnsafePointer(channel($0)) }, frames: n)
    }
}
