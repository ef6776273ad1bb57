import Foundation

/// A pipeline stage on a thread of its own: runs `body` once, remembers how it ended, and can
/// be joined (or left to run, for a stage that ends on its own). The packets and frames it
/// makes count in the `LiveObjects` scope it is given, normally the scope of the code that
/// starts the work (`LiveObjects.currentScope` there). Whatever `body` captures is used by the
/// thread alone until `join()` returns.
public final class PipelineWorker: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written by the thread before it signals `done`, read after.
    private var failure: Error?

    /// Starts `body` on a new thread named `name`, counting in `scope`.
    public init(_ name: String, scope: LiveObjects.Counters?, body: @escaping () throws -> Void) {
        nonisolated(unsafe) let work = body
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
    public func join() -> Error? {
        done.wait()
        done.signal()
        return failure
    }
}
