/// A first-in first-out queue between two pipeline stages on different threads: bounded by a
/// count of elements and, optionally, by their bytes; what a push does when it is full is its
/// policy (wait for room, drop the new element, or release the oldest; drops are counted).
/// Either side can close it: the
/// producer with `finish()` (the consumer drains what is left, then gets nil), either side with
/// `fail(_:)` (both sides rethrow the error; the first error wins).
///
/// Values handed through it (frames, packets) are moved, never shared, and the compiler checks
/// it: `push` takes its element as `sending` (the producer cannot touch it afterwards), `pop`
/// and `removeAll` hand theirs out as `sending` (no longer held by the queue), and `cost` is
/// `@Sendable`. The elements live in a `Guarded` state, so the queue is `Sendable` whatever
/// they are.
///
/// ```swift
/// let queue = PipelineQueue<Packet>(capacity: 64)                  // export: waits for room
/// let samples = PipelineQueue<Sample>(capacity: 8, whenFull: .dropNewest)  // capture: never waits
/// let newest = PipelineQueue<Frame>(capacity: 1, whenFull: .replaceOldest)  // a callback: the newest frame
/// ```
public final class PipelineQueue<Element>: Sendable {
    /// What `push` does when the queue is full.
    public enum WhenFull: Sendable {
        /// Wait for the consumer to make room (an export: nothing may be lost).
        case wait
        /// Refuse the new element at once and count it in `dropped` (a capture: the device
        /// must never wait).
        case dropNewest
        /// Release the oldest waiting elements until the new one fits, and count them in
        /// `replaced` (a consumer that wants only the newest frame there is).
        case replaceOldest
    }

    /// What has gone through the queue, read at one instant: every element pushed is
    /// `waiting`, `taken`, `dropped`, `replaced` or released by `fail`/`removeAll`.
    public struct Counts: Hashable, Sendable {
        /// Elements waiting.
        public var waiting = 0
        /// Elements handed out by `pop`.
        public var taken = 0
        /// Elements refused because the queue was full or closed (`.dropNewest`, `.replaceOldest`).
        public var dropped = 0
        /// Waiting elements released for newer ones (`.replaceOldest`).
        public var replaced = 0

        public init(waiting: Int = 0, taken: Int = 0, dropped: Int = 0, replaced: Int = 0) {
            self.waiting = waiting
            self.taken = taken
            self.dropped = dropped
            self.replaced = replaced
        }
    }

    private struct State {
        /// Waiting elements from `head` on; slots before it were taken and hold nil.
        var items: [Element?] = []
        var head = 0
        var bytes = 0
        var finished = false
        var failure: Error?
        var dropped = 0
        var replaced = 0
        var taken = 0

        var count: Int { items.count - head }

        mutating func take() -> Element {
            let element = items[head]!
            items[head] = nil
            head += 1
            if head > 64 && head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            }
            return element
        }
    }

    private let state = Guarded(State())
    /// The most elements it holds.
    public let capacity: Int
    /// What a push does when the queue is full.
    public let whenFull: WhenFull
    private let byteBudget: Int?
    private let cost: @Sendable (Element) -> Int

    /// A queue of at most `capacity` elements, and, with `bytes`, of elements whose `cost`
    /// adds up to at most `bytes` (one element is always let in, however large).
    public init(capacity: Int, whenFull: WhenFull = .wait, bytes: Int? = nil, cost: @escaping @Sendable (Element) -> Int = { _ in 0 }) {
        precondition(capacity > 0)
        self.capacity = capacity
        self.whenFull = whenFull
        byteBudget = bytes
        self.cost = cost
    }

    private func hasRoom(_ state: State, for size: Int) -> Bool {
        guard state.count < capacity else { return false }
        guard let byteBudget, state.count > 0 else { return true }
        return state.bytes + size <= byteBudget
    }

    /// Appends `element`; returns false when it was dropped (`.dropNewest`, full) or the queue
    /// is closed and drops are the policy. With `.wait` it waits for room and throws the
    /// queue's error, or `QueueClosed` when the queue was finished (the consumer went away).
    /// With `.replaceOldest` it releases the oldest waiting elements to make room.
    @discardableResult
    public func push(_ element: sending Element) throws -> Bool {
        let size = cost(element)
        switch whenFull {
        case .wait:
            let ready: @Sendable (State) -> Bool = { [self] in $0.failure != nil || $0.finished || hasRoom($0, for: size) }
            try state.wait(until: ready, moving: element) { state, element in
                if let failure = state.failure { throw failure }
                if state.finished { throw QueueClosed() }
                state.items.append(element)
                state.bytes += size
            }
            return true
        case .dropNewest, .replaceOldest:
            return try state.withLock(moving: element) { state, element in
                if let failure = state.failure { throw failure }
                let replacing = whenFull == .replaceOldest
                guard !state.finished, replacing || hasRoom(state, for: size) else {
                    state.dropped += 1
                    return false
                }
                while !hasRoom(state, for: size) {
                    state.bytes -= cost(state.take())
                    state.replaced += 1
                }
                state.items.append(element)
                state.bytes += size
                return true
            }
        }
    }

    /// The oldest element, waiting for one; nil once the queue was finished and all was taken.
    /// Throws the error the queue was failed with.
    public func pop() throws -> sending Element? {
        try state.wait(until: { $0.count > 0 || $0.finished || $0.failure != nil }) { state in
            if let failure = state.failure { throw failure }
            guard state.count > 0 else { return nil }
            let element = state.take()
            state.bytes -= cost(element)
            state.taken += 1
            return element
        }
    }

    /// No more elements will be pushed: the consumer takes what is left, then gets nil; a
    /// producer still pushing gets `QueueClosed` (or a drop).
    public func finish() {
        state.withLock { $0.finished = true }
    }

    /// Closes the queue with `error`: both sides stop and rethrow it, and the waiting elements
    /// are released. The first error wins.
    public func fail(_ error: Error) {
        state.withLock { state in
            if state.failure == nil { state.failure = error }
            state.items.removeAll()
            state.head = 0
            state.bytes = 0
        }
    }

    /// Takes every waiting element at once.
    public func removeAll() -> sending [Element] {
        state.withLock { state in
            var rest: [Element] = []
            while state.count > 0 { rest.append(state.take()) }
            state.bytes = 0
            return rest
        }
    }

    /// Elements waiting.
    public var count: Int { state.read(\.count) }
    /// Elements refused because the queue was full or closed (`.dropNewest`, `.replaceOldest`).
    public var dropped: Int { state.read(\.dropped) }
    /// Waiting, taken, dropped and replaced elements, counted at one instant.
    public var counts: Counts {
        state.read { Counts(waiting: $0.count, taken: $0.taken, dropped: $0.dropped, replaced: $0.replaced) }
    }
}

/// Thrown by `PipelineQueue.push` when the queue was finished before the element came, which
/// means the consumer went away.
public struct QueueClosed: Error {
    public init() {}
}
