import Dispatch

/// One piece of a split segment rendered ahead on a worker thread.
///
/// The renderer builds the `SegmentState` on its own thread (over a window of the track copied
/// for the piece, so the worker never touches the renderer's source), hands it over, and takes it
/// back with `wait()`. The semaphore orders every access: the worker owns the state between
/// `start()` and the signal, the renderer before and after. That is why the class may be
/// `@unchecked Sendable`.
final class PieceJob: @unchecked Sendable {
    private let state: SegmentState
    private let done = DispatchSemaphore(value: 0)
    private var failure: (any Error)?

    init(_ state: SegmentState) { self.state = state }

    func start() {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            do { try state.prepare() } catch { failure = error }
            done.signal()
        }
    }

    /// The rendered state, once the worker is done; rethrows its error.
    func wait() throws -> SegmentState {
        done.wait()
        if let failure { throw failure }
        return state
    }
}
