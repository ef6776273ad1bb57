import Foundation
import Synchronization

/// A pipeline stage on a thread of its own: runs one body once, remembers how it ended, and
/// can be joined (or left to run, for a stage that ends on its own). The packets and frames it
/// makes count in the `LiveObjects` scope it is given, normally the scope of the code that
/// starts the work (`LiveObjects.currentScope` there). Whatever the body captures is used by
/// the thread alone, and released before `join()` returns.
///
/// A worker either starts at once (`init(_:scope:body:)`), or is made first and started later
/// (`init(_:scope:)`, then `start(_:)`) by an object that keeps it and whose own methods the
/// body runs.
public final class PipelineWorker: @unchecked Sendable {
    private let name: String
    private let scope: LiveObjects.Counters?
    private let started = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    /// Written by the thread before it signals `done`, read after.
    private var failure: Error?

    /// A worker named `name`, counting in `scope`, that has not started yet.
    public init(_ name: String, scope: LiveObjects.Counters?) {
        self.name = name
        self.scope = scope
    }

    /// Starts `body` on a new thread named `name`, counting in `scope`.
    public convenience init(_ name: String, scope: LiveObjects.Counters?, body: @escaping () throws -> Void) {
        self.init(name, scope: scope)
        start(body)
    }

    /// Starts `body` on the worker's thread. A worker runs one body: starting it twice is a
    /// programming error.
    public func start(_ body: @escaping () throws -> Void) {
        precondition(!started.exchange(true, ordering: .relaxed), "PipelineWorker \(name) started twice")
        // Released on the thread before `done` is signalled: what the body captures is gone
        // when `join()` returns, so a leak count taken then sees only real leaks.
        nonisolated(unsafe) var work: (() throws -> Void)? = body
        let scope = scope
        let thread = Thread { [self] in
            do { try LiveObjects.within(scope) { try work?() } } catch { failure = error }
            work = nil
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
        return failure
    }
}
