import Synchronization

/// How one writer publishes several atomic values together and readers read them without a
/// lock (a seqlock): the writer makes a sequence number odd while it writes and even after; a
/// reader that saw it odd, or changed while it read, reads again, or, on a thread that must
/// not wait for the writer (the sound device's), gives up until next time (`tryRead`).
///
/// The values themselves are atomics (loaded and stored relaxed): a reader may see them torn,
/// never undefined, and throws a torn read away.
final class SeqLock: Sendable {
    private let sequence = Atomic<Int>(0)

    /// The version published last: even, and odd while a write is under way.
    var version: Int { sequence.load(ordering: .acquiring) }

    /// Runs `body`, which stores the values, as one publication (the one writer's thread).
    func write(_ body: () -> Void) {
        let odd = sequence.load(ordering: .relaxed) + 1
        sequence.store(odd, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        body()
        sequence.store(odd + 1, ordering: .releasing)
    }

    /// What `body` reads from one publication, and its version; nil when a write was under way.
    func tryRead<Value>(_ body: () -> Value) -> (value: Value, version: Int)? {
        let before = sequence.load(ordering: .acquiring)
        guard before % 2 == 0 else { return nil }
        let value = body()
        atomicMemoryFence(ordering: .acquiring)
        return sequence.load(ordering: .relaxed) == before ? (value, before) : nil
    }

    /// What `body` reads from one publication, reading again until no write interferes.
    func read<Value>(_ body: () -> Value) -> Value {
        while true {
            if let read = tryRead(body) { return read.value }
        }
    }
}
