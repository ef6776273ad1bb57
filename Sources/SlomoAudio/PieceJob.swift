import SlomoConcurrency
import Synchronization

/// One piece of a split segment rendered ahead on a worker thread.
///
/// The renderer builds the `SegmentRendering` on its own thread (over a snapshot of the track's window
/// for the piece, so the worker never touches the renderer's source), hands it over, and takes it
/// back with `wait()`. The rendering keeps a reference to its renderer (for its plan and fades,
/// which do not change while pieces render), so the compiler cannot see it apart from the
/// renderer's thread: the class is one of the `@unchecked Sendable` types that
/// docs/architecture.md lists, checked at run time. The rendering belongs to one thread at a
/// time (`ThreadOwnership`): the renderer's until `start()`, the worker's while it prepares
/// it, the renderer's again once `wait()` has joined the worker; each hand-over checks. A
/// renderer that goes away first `cancel()`s its jobs; the worker stops at its next block and
/// only the job itself still holds the rendering.
final class PieceJob: @unchecked Sendable {
    private let rendering: SegmentRendering
    private let ownership = ThreadOwnership()
    private let worker = PipelineWorker("slomo audio piece")
    private let cancelled = Atomic<Bool>(false)

    init(_ rendering: SegmentRendering) { self.rendering = rendering }

    func start() {
        ownership.release()
        worker.start { [self] in
            ownership.claim()
            defer { ownership.release() }
            try rendering.prepare { cancelled.load(ordering: .relaxed) }
        }
    }

    /// Asks the worker to stop; the result must not be used.
    func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// The prepared rendering, once the worker is done; rethrows its error.
    func wait() throws -> SegmentRendering {
        let failure = worker.join()
        ownership.claim()
        if let failure { throw failure }
        return rendering
    }
}
