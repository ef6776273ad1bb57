import SlomoCore

/// What finished segments leave for later ones: their FIFOs' memory and their time-domain
/// processors, started again. Each piece of a long segment would otherwise allocate megabytes
/// afresh (and page-fault them in) and build a new stretcher. Used on the renderer's thread only.
///
/// Only the time-domain engine comes back from a restart exactly as a new one: on one thread
/// every piece reuses its predecessor's processor, on two the first pieces get new ones, and
/// the samples are the same (`ParallelRenderingTests`). Rubber Band R3 after `rubberband_reset` differs
/// from a new stretcher, and output must not depend on which pieces happened to render first.
struct SegmentLeftovers {
    private var fifos: [PlanarFIFO] = []
    private var processors: [EngineProcessor] = []
    /// How many of each are kept.
    let capacity: Int
    /// The one algorithm whose processors are reused.
    private static let reusedAlgorithm = TimePitchAlgorithm.timeDomain

    init(capacity: Int) { self.capacity = capacity }

    /// Takes a finished stretched segment's FIFO and processor for a later segment.
    mutating func keep(_ state: SegmentRendering) {
        guard let processor = state.processor else { return }
        if fifos.count < capacity {
            // Taken out of the state, so that emptying it keeps its memory instead of copying.
            var fifo = state.fifo
            state.fifo = PlanarFIFO(channelCount: fifo.channelCount)
            fifo.removeAll()
            fifos.append(fifo)
        }
        if processor.algorithm == Self.reusedAlgorithm, processors.count < capacity {
            processors.append(processor)
        }
    }

    /// An empty FIFO, with the memory of a finished one when there is one.
    mutating func fifo(channelCount: Int) -> PlanarFIFO {
        fifos.popLast() ?? PlanarFIFO(channelCount: channelCount)
    }

    /// A kept processor of `algorithm` and pitch, started again at `rate`; nil when none is
    /// kept (or the algorithm's are not reused).
    mutating func processor(_ algorithm: TimePitchAlgorithm, rate: Double, pitch: Double) throws -> EngineProcessor? {
        let ratio = PitchShift.ratio(semitones: pitch)
        guard algorithm == Self.reusedAlgorithm,
              let index = processors.lastIndex(where: { $0.pitchRatio == ratio }) else { return nil }
        let processor = processors.remove(at: index)
        try processor.restart(at: rate)
        return processor
    }
}
