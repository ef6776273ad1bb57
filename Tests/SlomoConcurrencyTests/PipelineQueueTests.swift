import Foundation
import SlomoConcurrency
import Synchronization
import Testing

/// The one queue between pipeline stages (export and capture): it holds only what is waiting,
/// keeps to its count and byte bounds with either policy, and its closing is seen by both
/// sides.
@Suite struct PipelineQueueTests {
    /// Counts the live instances of one test's `Tracked` elements (parameterised cases run in
    /// parallel, so each has its own).
    final class Census: Sendable {
        let live = Atomic<Int>(0)
    }

    /// An element that is counted while it lives.
    final class Tracked: Sendable {
        let census: Census
        init(_ census: Census) {
            self.census = census
            census.live.add(1, ordering: .relaxed)
        }
        deinit { census.live.subtract(1, ordering: .relaxed) }
    }

    /// Issue 17: a capacity-8 queue kept 64 popped objects alive (up to 64 raw frames beyond a
    /// recording's byte budget). A popped element is the consumer's alone.
    @Test(arguments: [PipelineQueue<Tracked>.WhenFull.wait, .dropNewest, .replaceOldest])
    func poppedElementsAreNotKeptAlive(_ policy: PipelineQueue<Tracked>.WhenFull) throws {
        let queue = PipelineQueue<Tracked>(capacity: 8, whenFull: policy)
        let census = Census()
        var mostAlive = 0
        for _ in 0..<200 {
            #expect(try queue.push(Tracked(census)))
            _ = try queue.pop() // a consumer that keeps up drops each element at once
            mostAlive = max(mostAlive, census.live.load(ordering: .relaxed))
        }
        print("capacity-8 queue (\(policy)), consumer keeping up: at most \(mostAlive) elements alive after a pop")
        #expect(mostAlive == 0)
    }

    /// Elements a full `.replaceOldest` queue releases are gone at once, not kept in its storage.
    @Test func replacedElementsAreNotKeptAlive() throws {
        let queue = PipelineQueue<Tracked>(capacity: 2, whenFull: .replaceOldest)
        let census = Census()
        for _ in 0..<200 { try queue.push(Tracked(census)) }
        #expect(census.live.load(ordering: .relaxed) == 2)
        #expect(queue.counts.replaced == 198)
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

    /// A queue that keeps the newest: a full queue releases its oldest elements (as many as
    /// the new one's bytes need) and counts them; every element pushed is accounted for.
    @Test func replacingQueueKeepsTheNewestAndCountsWhatItReleased() throws {
        let newest = PipelineQueue<Int>(capacity: 1, whenFull: .replaceOldest)
        for value in 1...5 { #expect(try newest.push(value)) }
        #expect(newest.counts == .init(waiting: 1, taken: 0, dropped: 0, replaced: 4))
        #expect(try newest.pop() == 5)
        try newest.push(6)
        newest.finish()
        #expect(try !newest.push(7), "a finished queue refuses")
        #expect(try newest.pop() == 6 && newest.pop() == nil)
        #expect(newest.counts == .init(waiting: 0, taken: 2, dropped: 1, replaced: 4))

        let budget = PipelineQueue<Int>(capacity: 8, whenFull: .replaceOldest, bytes: 100, cost: { $0 })
        for value in [30, 30, 30] { try budget.push(value) }
        try budget.push(60)   // 150 bytes: the two oldest 30s make room
        #expect(budget.counts.replaced == 2)
        #expect(budget.removeAll() == [30, 60])
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
