import Synchronization

/// A fixed number of 64-bit words, allocated once, that one thread writes and others read
/// without a lock: the sound ring's samples, labels and anchors, which SDL's audio thread reads
/// and writes without taking a lock or allocating. Each word is loaded and stored relaxed;
/// what orders them for another thread is the caller's own release and acquire (the ring's
/// positions, a sequence number).
///
/// The words are `Atomic`s in fixed-size chunks, so the type is `Sendable` as the compiler
/// checks it (an unsafe buffer would not be).
final class AtomicWords: Sendable {
    private static let chunkWords = 4096

    private final class Chunk: Sendable {
        let words: InlineArray<4096, Atomic<UInt64>> = InlineArray { _ in Atomic(0) }
    }

    private let chunks: [Chunk]
    /// How many words there are.
    let count: Int

    init(count: Int) {
        self.count = count
        chunks = (0..<(count + Self.chunkWords - 1) / Self.chunkWords).map { _ in Chunk() }
    }

    func load(_ index: Int) -> UInt64 {
        chunks[index / Self.chunkWords].words[index % Self.chunkWords].load(ordering: .relaxed)
    }

    func store(_ value: UInt64, at index: Int) {
        chunks[index / Self.chunkWords].words[index % Self.chunkWords].store(value, ordering: .relaxed)
    }

    /// Stores `values` as the words from `index` on, going round to word 0 after the last.
    func store(_ values: UnsafeBufferPointer<Float>, at index: Int) {
        var done = 0
        forEachSpan(from: index, count: values.count) { words, span in
            for word in span {
                words[word].store(UInt64(values[done].bitPattern), ordering: .relaxed)
                done += 1
            }
        }
    }

    /// Fills `output` with the words from `index` on, as floats, going round after the last.
    func load(_ output: UnsafeMutableBufferPointer<Float>, from index: Int) {
        var done = 0
        forEachSpan(from: index, count: output.count) { words, span in
            for word in span {
                output[done] = Float(bitPattern: UInt32(truncatingIfNeeded: words[word].load(ordering: .relaxed)))
                done += 1
            }
        }
    }

    func double(_ index: Int) -> Double { Double(bitPattern: load(index)) }
    func store(_ value: Double, at index: Int) { store(value.bitPattern, at: index) }
    func int(_ index: Int) -> Int { Int(Int64(bitPattern: load(index))) }
    func store(_ value: Int, at index: Int) { store(UInt64(bitPattern: Int64(value)), at: index) }

    /// Calls `body` with each chunk's words and the range of them that `count` words from
    /// `index` on cover, in order: one chunk reference per span, not one per word.
    private func forEachSpan(from index: Int, count: Int, _ body: (borrowing InlineArray<4096, Atomic<UInt64>>, Range<Int>) -> Void) {
        var index = index % self.count, left = count
        while left > 0 {
            let chunk = chunks[index / Self.chunkWords]
            let first = index % Self.chunkWords
            let length = min(left, Self.chunkWords - first, self.count - index)
            body(chunk.words, first..<first + length)
            left -= length
            index = (index + length) % self.count
        }
    }
}
