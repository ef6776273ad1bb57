import Synchronization

/// One value on its way to another thread: given up as `sending` by one side, taken once as
/// `sending` by the other. What a closure captures it cannot send again, so a worker's body
/// that must move a value on (push it to a queue, keep it in a `Guarded` state) takes it from a
/// `Handoff` the starting thread filled, which the body captures instead (a `Handoff` is
/// `Sendable`; its value is reachable only through `take()`).
///
/// ```swift
/// let pair = Handoff((try a.clone(), try b.clone()))
/// let worker = PipelineWorker("slomo flow") {
///     let (a, b) = pair.take()    // disconnected here: the worker may move them on
///     …
/// }
/// ```
public final class Handoff<Value>: Sendable {
    private let slot: Mutex<Value?>

    public init(_ value: sending Value) { slot = Mutex(value) }

    /// The value; taking it twice is a programming error.
    public func take() -> sending Value {
        guard let value = slot.withLock({ $0.take() }) else { preconditionFailure("Handoff<\(Value.self)> taken twice") }
        return value
    }
}
