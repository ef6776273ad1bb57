import Foundation
import Synchronization

/// State reachable only while its lock is held, and a way to wait for it to change: the
/// standard library's `Mutex` with a condition variable. `withLock` changes the state and wakes
/// every waiter; `wait(until:then:)` blocks until a predicate on the state holds, then runs its
/// body under the same lock; `read` looks without waking anyone.
///
/// The state lives in a `Mutex`, and like `Mutex` a `Guarded` is `Sendable` whatever its state,
/// because the compiler checks every way in and out: the state comes in as `sending`, a body
/// gets it as `inout sending` and hands back a `sending` result, a value moved in goes through
/// `moving:` as `sending`, and the predicates and readers that look at it are `@Sendable`
/// (readers return `Sendable` values). State of frames or packets (`PipelineQueue`, the
/// player's `VideoFeed`) is moved through it, never shared: what a body returns from the state
/// it takes out of it (`Optional.take()`, `removeFirst()`), for the compiler does not yet check
/// that a `sending` result is apart from the state it came from (nor does it for `Mutex`).
/// The condition's own lock is taken around the mutex's (uncontended) one.
public final class Guarded<State>: Sendable {
    private let condition = NSCondition()
    private let state: Mutex<State>

    public init(_ state: sending State) { self.state = Mutex(state) }

    /// Runs `body` on the state under the lock, then wakes every waiter.
    public func withLock<Result, Failure: Error>(
        _ body: (inout sending State) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try state.withLock { (state: inout sending State) throws(Failure) -> sending Result in try body(&state) }
    }

    /// Moves `value` into `body`, run on the state under the lock, then wakes every waiter: the
    /// way to put a value the caller gives up into the state (a closure cannot send what it
    /// captures).
    public func withLock<Value, Result, Failure: Error>(
        moving value: sending Value, _ body: (inout sending State, sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        let slot = Mutex<Value?>(consume value)
        return try withLock { (state: inout sending State) throws(Failure) -> sending Result in
            try body(&state, Self.take(from: slot))
        }
    }

    /// Waits until `ready` holds for the state, then runs `body` on it under the lock and wakes
    /// every waiter.
    public func wait<Result, Failure: Error>(
        until ready: @Sendable (State) -> Bool, then body: (inout sending State) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        while !state.withLock({ ready($0) }) { condition.wait() }
        return try state.withLock { (state: inout sending State) throws(Failure) -> sending Result in try body(&state) }
    }

    /// Waits until `ready` holds for the state, then moves `value` into `body`, run on it under
    /// the lock, and wakes every waiter.
    public func wait<Value, Result, Failure: Error>(
        until ready: @Sendable (State) -> Bool, moving value: sending Value,
        then body: (inout sending State, sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        let slot = Mutex<Value?>(consume value)
        return try wait(until: ready) { (state: inout sending State) throws(Failure) -> sending Result in
            try body(&state, Self.take(from: slot))
        }
    }

    /// Waits until `ready` holds for the state or `deadline` passes; true when it holds.
    public func wait(until ready: @Sendable (State) -> Bool, deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !state.withLock({ ready($0) }) {
            if !condition.wait(until: deadline) { return state.withLock { ready($0) } }
        }
        return true
    }

    /// A value computed from the state under the lock (a `Sendable` one: what is read is a
    /// copy, never a part of the state).
    public func read<Result: Sendable, Failure: Error>(_ body: @Sendable (State) throws(Failure) -> Result) throws(Failure) -> Result {
        condition.lock()
        defer { condition.unlock() }
        return try state.withLock { (state: inout sending State) throws(Failure) -> Result in try body(state) }
    }

    /// The value in `slot`, taken out: a value given up as `sending` crosses into a closure
    /// this way (what a closure captures, it cannot send).
    private static func take<Value>(from slot: borrowing Mutex<Value?>) -> sending Value {
        guard let value = slot.withLock({ $0.take() }) else { preconditionFailure("a moved value was taken twice") }
        return value
    }
}
