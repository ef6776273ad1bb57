import Foundation
import SlomoMedia

/// A first-in first-out queue of limited capacity between two pipeline stages running on
/// different threads. `push` blocks while the queue is full, `pop` while it is empty. Either
/// side can `close` it: with an error (the other side rethrows it), or at the producer's end
/// of data (the consumer drains what is left, then gets nil).
///
/// Values handed through it (frames, packets) are moved, never shared: the producer must not
/// touch a value after pushing it. That is what makes the unchecked `Sendable` sound.
final class BoundedQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    /// Slots before `head` were taken and hold nil, so that nothing taken stays alive here.
    private var items: [Element?] = []
    private var head = 0
    private let capacity: Int
    private var finished = false
    private var failure: Error?

    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// Appends a value, waiting for room. Throws the error the queue was closed with, or
    /// `QueueClosed` when the consumer has gone away.
    func push(_ element: Element) throws {
        condition.lock()
        defer { condition.unlock() }
        while items.count - head >= capacity && failure == nil && !finished { condition.wait() }
        if let failure { throw failure }
        if finished { throw QueueClosed() }
        items.append(element)
        condition.broadcast()
    }

    /// The next value, waiting for one; nil once the producer finished and all was taken.
    /// Throws the error the queue was closed with.
    func pop() throws -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count && failure == nil && !finished { condition.wait() }
        if let failure { throw failure }
        guard head < items.count else { return nil }
        let element = items[head]
        items[head] = nil
        head += 1
        if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return element!
    }

    /// No more values will come (producer) or be taken (consumer).
    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Closes the queue with an error: both sides stop and rethrow it. The first error wins.
    func fail(_ error: Error) {
        condition.lock()
        if failure == nil { failure = error }
        items.removeAll()
        head = 0
        condition.broadcast()
        condition.unlock()
    }
}

/// Thrown by `BoundedQueue.push` when the consumer closed the queue early.
struct QueueClosed: Error {}

/// A pipeline stage on its own thread: runs `body` once, remembers how it ended, and can be
/// joined. Each stage owns the FFmpeg contexts it uses for as long as it runs.
final class PipelineThread: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var failure: Error?

    /// Starts `body` on a new thread named `name`, counting its packets and frames in the
    /// `LiveObjects` scope of the thread that starts it. Whatever `body` captures is used by
    /// that thread alone until `join()` returns.
    init(_ name: String, body: @escaping () throws -> Void) {
        nonisolated(unsafe) let work = body
        let scope = LiveObjects.currentScope
        let thread = Thread { [self] in
            do { try LiveObjects.within(scope) { try work() } } catch { failure = error }
            done.signal()
        }
        thread.name = name
        thread.stackSize = 4 << 20
        thread.start()
    }

    /// Waits for the thread to end and returns the error it ended with, if any. May be called
    /// more than once.
    @discardableResult
    func join() -> Error? {
        done.wait()
        done.signal()
        return failure
    }
}
