import Synchronization
import Testing
@testable import SlomoCapture

/// The capture queue holds only what is waiting: a popped frame is the consumer's alone
/// (issue 17: a capacity-8 queue kept 64 popped objects alive, up to 64 raw frames beyond the
/// recording's byte budget).
@Suite struct BoundedQueueTests {
    /// Counts live instances.
    final class Tracked: Sendable {
        static let live = Atomic<Int>(0)
        init() { Self.live.add(1, ordering: .relaxed) }
        deinit { Self.live.subtract(1, ordering: .relaxed) }
    }

    @Test func poppedItemsAreNotKeptAlive() {
        let queue = BoundedQueue<Tracked>(capacity: 8)
        let before = Tracked.live.load(ordering: .relaxed)
        var mostAlive = 0
        for _ in 0..<200 {
            #expect(queue.tryPush(Tracked()))
            // A consumer that keeps up: each item is dropped as soon as it is popped.
            _ = queue.pop()
            mostAlive = max(mostAlive, Tracked.live.load(ordering: .relaxed) - before)
        }
        print("capacity-8 queue, consumer keeping up: at most \(mostAlive) items alive after a pop")
        #expect(mostAlive == 0)
        queue.close()
    }
}
