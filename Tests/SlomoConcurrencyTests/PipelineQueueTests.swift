import Foundation
import SlomoConcurrency
import Synchronization
import Testing

/// The one queue between pipeline stages (export and capture): it holds only what is waiting,
/// keeps to its count and byte bounds with either policy, and its closing is seen by both
/// sides.
@Suite struct PipelineQueueTests {
    /// Counts live instances.
    final class Tracked: Sendable {
        static let live = Atomic<Int>(0)
        init() { Self.live.add(1, ordering: .relaxed) }
        deinit { Self.live.subtract(1, ordering: .relaxed) }
    }

    /// Issue 17: a capacity-8 queue kept 64 popped objects alive (up to 64 raw frames beyond a
    /// recording's byte budget). A popped element is the consumer's alone.
    @Test(arguments: [PipelineQueue<Tracked>.WhenFull.wait, .dropNewest])
    func poppedElementsAreNotKeptAlive(_ policy: PipelineQueue<Tracked>.WhenFull) throws {
        let queue = PipelineQueue<Tracked>(capacity: 8, whenFull: policy)
        let before = Tracked.live.load(ordering: .relaxed)
        var mostAlive = 0
        for _ in 0..<200 {
            #expect(try queue.push(Tracked()))
            _ = try queue.pop() // a consumer that keeps up drops each element at once
            mostAlive = max(mostAlive, Tracked.live.load(ordering: .relaxed) - before)
        }
        print("capacity-8 queue (\(policy)), consumer keeping up: at most \(mostAlive) elements alive after a pop")
        #expect(mostAlive == 0)
    }

    @Test func droppingQueueRefusesWhatDoesNotFitAndCountsIt() throws {
        let queue = PipelineQueue<Int>(capacity: 3, whenFull: .dropNewest, bytes: 10, cost: { $0 })
        #expect(try queue.push(12), "one element always gets in, however large")
        #expect(try !queue.push(1), "… and then the budget is spent")
        #expect(try queue.pop() == 12)
        #expect(try queue.push(4) && queue.push(4))
        #expect(try !queue.push(4), "4 + 4 + 4 bytes exceed 10")
        #expect(try queue.push(2))
        #expect(try !queue.push(0), "three elements at most")
        #expect(queue.count == 3 && queue.dropped == 3)
        queue.finish()
        #expect(try !queue.push(1), "a finished queue refuses")
        #expect(try queue.pop() == 4 && queue.pop() == 4 && queue.pop() == 2 && queue.pop() == nil)
        #expect(queue.dropped == 4)
    }

    /// A producer that fills the queue waits for the consumer; order is kept and nothing lost.
    @Test func waitingQueueHandsOverEverythingInOrder() throws {
        let queue = PipelineQueue<Int>(capacity: 4, bytes: 100, cost: { $0 % 40 })
        let producer = PipelineWorker("test producer", scope: nil) {
            for value in 0..<1000 { try queue.push(value) }
            queue.finish()
        }
        var taken: [Int] = []
        while let value = try queue.pop() {
            taken.append(value)
            #expect(queue.count <= 4)
        }
        #expect(producer.join() == nil)
        #expect(taken == Array(0..<1000))
    }

    /// A failure reaches both sides; a finished queue tells a producer the consumer is gone.
    @Test func closingIsSeenByBothSides() throws {
        struct Stop: Error, Equatable {}
        let failed = PipelineQueue<Int>(capacity: 1)
        try failed.push(1)
        let blocked = PipelineWorker("test blocked producer", scope: nil) { try failed.push(2) } // waits: full
        failed.fail(Stop())
        #expect(blocked.join() as? Stop == Stop(), "the waiting producer wakes with the error")
        #expect(throws: Stop.self) { try failed.pop() }
        #expect(failed.count == 0, "a failed queue releases what it held")

        let finished = PipelineQueue<Int>(capacity: 2)
        try finished.push(7)
        finished.finish()
        #expect(throws: QueueClosed.self) { try finished.push(8) }
        #expect(try finished.pop() == 7 && finished.pop() == nil)
    }
}
