import Foundation

/// A first-in first-out queue with a fixed capacity between one capture thread and one
/// consumer thread. Pushing never blocks (a full queue refuses the item, and the caller counts
/// the drop); popping blocks until an item arrives or the queue is closed and empty.
final class BoundedQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    /// Waiting items from `head` on; slots before it are emptied as they are popped, so the
    /// queue never keeps a popped item alive.
    private var items: [Element?] = []
    private var head = 0
    private var closed = false
    let capacity: Int

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Number of items waiting.
    var count: Int { condition.lock(); defer { condition.unlock() }; return items.count - head }

    /// Adds an item unless the queue is full or closed; never blocks.
    func tryPush(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !closed, items.count - head < capacity else { return false }
        items.append(item)
        condition.signal()
        return true
    }

    /// The oldest item; blocks while the queue is open and empty; nil once closed and empty.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while items.count - head == 0 && !closed { condition.wait() }
        guard items.count - head > 0 else { return nil }
        let item = items[head]
        items[head] = nil
        head += 1
        if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return item
    }

    /// Refuses further pushes and wakes the consumer; items already queued can still be popped.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Removes and returns every waiting item.
    func removeAll() -> [Element] {
        condition.lock()
        defer { condition.unlock() }
        let rest = items[head...].compactMap { $0 }
        items.removeAll()
        head = 0
        return rest
    }
}
