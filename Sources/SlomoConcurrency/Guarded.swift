import Foundation

/// State reachable only while its lock is held, and a way to wait for it to change: swift-nio's
/// `NIOLockedValueBox` with a condition variable. `withLock` changes the state and wakes every
/// waiter; `wait(until:then:)` blocks until a predicate on the state holds, then runs its body
/// under the same lock; `read` looks without waking anyone.
public final class Guarded<State>: @unchecked Sendable {
    private let condition = NSCondition()
    private var state: State

    public init(_ state: State) { self.state = state }

    /// Runs `body` on the state under the lock, then wakes every waiter.
    public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&state)
    }

    /// Waits until `ready` holds for the state, then runs `body` on it under the lock and wakes
    /// every waiter.
    public func wait<Result>(until ready: (State) -> Bool, then body: (inout State) throws -> Result) rethrows -> Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        while !ready(state) { condition.wait() }
        return try body(&state)
    }

    /// Waits until `ready` holds for the state or `deadline` passes; true when it holds.
    public func wait(until ready: (State) -> Bool, deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !ready(state) {
            if !condition.wait(until: deadline) { return ready(state) }
        }
        return true
    }

    /// A value computed from the state under the lock.
    public func read<Result>(_ body: (State) throws -> Result) rethrows -> Result {
        condition.lock()
        defer { condition.unlock() }
        return try body(state)
    }
}
