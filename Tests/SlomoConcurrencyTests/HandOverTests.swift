import SlomoConcurrency
import Testing

/// The ways a value that is not `Sendable` goes from one thread to another: moved through a
/// `Handoff` or a `Guarded` state (checked by the compiler), handed on by `disconnected` or a
/// `ThreadOwnership` (checked at run time, and trapping when the check fails).
@Suite struct HandOverTests {
    /// Not `Sendable`: a worker may have it only if it is moved there.
    final class Counter {
        var count = 0
    }

    @Test func handoffMovesAValueToAWorkerAndAGuardedStateBringsItBack() throws {
        let counter = Counter()
        counter.count = 1
        let outbound = Handoff(counter)
        let inbound = Guarded<Counter?>(nil)
        let worker = PipelineWorker("test hand-over", scope: nil) {
            let counter = outbound.take()
            counter.count += 1
            inbound.withLock(moving: counter) { $0 = $1 }
        }
        #expect(worker.join() == nil)
        let back = try #require(inbound.withLock { $0.take() })
        #expect(back.count == 2)
    }

    @Test func disconnectedHandsOnTheOnlyReference() {
        let made = Counter()
        let identity = ObjectIdentifier(made)
        let moved = disconnected(consume made)
        #expect(ObjectIdentifier(moved) == identity)
    }

    @Test func disconnectedTrapsWhileAnotherReferenceIsHeld() async {
        await #expect(processExitsWith: .failure) {
            let kept = [Counter()]
            _ = disconnected(kept[0])
        }
    }

    @Test func ownershipFollowsTheHandOver() {
        let ownership = ThreadOwnership()
        ownership.check("the test's state")
        ownership.release()
        let worker = PipelineWorker("test owner", scope: nil) {
            ownership.claim()
            ownership.check("the test's state")
            ownership.release()
        }
        #expect(worker.join() == nil)
        ownership.claim()
        ownership.check("the test's state")
    }

    @Test func ownershipTrapsOnAnotherThread() async {
        await #expect(processExitsWith: .failure) {
            let ownership = ThreadOwnership()
            let worker = PipelineWorker("test intruder", scope: nil) { ownership.check("the test's state") }
            worker.join()
        }
    }
}
