import Foundation
import Synchronization

/// A pipeline stage on a thread of its own: runs one body once, remembers how it ended, and
/// can be joined (or left to run, for a stage that ends on its own). The packets and frames it
/// makes count in the `LiveObjects` scope of the code that makes it (`LiveObjects.currentScope`
/// there, unless it is given another).
///
/// The body is `sending`: whatever it captures, the starting thread gives up, and the compiler
/// checks that it touches none of it afterwards (a value it keeps using must be `Sendable`).
/// The body is released on the worker's thread before `join()` returns.
///
/// A worker either starts at once (`init(_:scope:body:)`), or is made first and started later
/// (`init(_:scope:)`, then `start(_:)`) by an object that keeps it and whose own methods the
/// body runs.
public final class PipelineWorker: Sendable {
    private let name: String
    private let scope: LiveObjects.Counters?
    private let started = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    /// Set by the thread before it signals `done`, read after.
    private let failure = Mutex<(any Error)?>(nil)

    /// A worker named `name`, counting in `scope` (by default the caller's), that has not
    /// started yet.
    public init(_ name: String, scope: LiveObjects.Counters? = LiveObjects.currentScope) {
        self.name = name
        self.scope = scope
    }

    /// Starts `body` on a new thread named `name`, counting in `scope` (by default the caller's).
    public convenience init(_ name: String, scope: LiveObjects.Counters? = LiveObjects.currentScope,
                            body: sending @escaping () throws -> Void) {
        self.init(name, scope: scope)
        start(body)
    }

    /// Starts `body` on the worker's thread. A worker runs one body: starting it twice is a
    /// programming error.
    public func start(_ body: sending @escaping () throws -> Void) {
        precondition(!started.exchange(true, ordering: .relaxed), "PipelineWorker \(name) started twice")
        let work = Work(body)
        let thread = Thread { [self] in
            let error = work.run(in: scope)
            failure.withLock { $0 = error }
            done.signal()
        }
        thread.name = name
        thread.stackSize = 4 << 20
        thread.start()
    }

    /// Waits for the thread to end and returns the error it ended with, if any. May be called
    /// more than once.
    @discardableResult
    public func join() -> Error? {
        done.wait()
        done.signal()
        return failure.withLock { $0 }
    }
}

/// A worker's body on its way to the worker's thread (whose closure must be `@Sendable`): kept
/// in a mutex, which only that thread ever takes, and which is how a `sending` closure becomes
/// part of a `Sendable` value without an unchecked step.
private final class Work: Sendable {
    private let body: Mutex<(() throws -> Void)?>

    init(_ body: sending @escaping () throws -> Void) { self.body = Mutex(body) }

    /// Runs the body once, counting in `scope`, and releases it (and what it captured) before
    /// returning how it failed, if it did.
    func run(in scope: LiveObjects.Counters?) -> (any Error)? {
        body.withLock { body in
            defer { body = nil }
            do {
                try LiveObjects.within(scope) { try body?() }
                return nil
            } catch {
                return error
            }
        }
    }
}
