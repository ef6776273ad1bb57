import SlomoConcurrency
import Synchronization

/// One piece of a split segment rendered ahead on a worker thread.
///
/// The renderer builds the `SegmentRendering` on its own thread (over a snapshot of the track's window
/// for the piece, so the worker never touches the renderer's source), hands it over, and takes it
/// back with `wait()`. The worker's join orders every access: the worker owns the rendering
/// between `start()` and its end, the renderer before and after. That is why the class may be
/// `@unchecked Sendable`. A renderer that goes away first `cancel()`s its jobs; the worker
/// stops at its next block and only the job itself still holds the rendering.
final class PieceJob: @unchecked Sendable {
    private let rendering: SegmentRendering
    private let worker = PipelineWorker("slomo audio piece", scope: LiveObjects.currentScope)
    private let cancelled = Atomic<Bool>(false)

    init(_ rendering: SegmentRendering) { self.rendering = rendering }

    func start() {
        worker.start { [self] in try rendering.prepare { cancelled.load(ordering: .relaxed) } }
    }

    /// Asks the worker to stop; the result must not be used.
    func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// The prepared rendering, once the worker is done; rethrows its error.
    func wait() throws -> SegmentRendering {
        if let failure = worker.join() { throw failure }
        return rendering
    }
}
