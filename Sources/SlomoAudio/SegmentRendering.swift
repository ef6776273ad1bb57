import SlomoCore

/// The rendering of one `AudioRenderer.SegmentPlan`: the copied source, a processor fed from a
/// pre-roll before the segment, or a freeze frame's held sound, with the crossfades at its joins.
///
/// A rendering is built and filled either on the renderer's thread (read lazily from the track) or
/// ahead of time on a worker (`prepare(until:)`, reading a snapshot of its window of the track); in both
/// cases `emit(_:)` and `tail()` run on the renderer's thread. What the worker runs never
/// touches the renderer, which may be gone by then (an export that was cancelled).
final class SegmentRendering {
    unowned let renderer: AudioRenderer
    let index: Int
    let plan: AudioRenderer.SegmentPlan
    /// Where the processor reads the track: the renderer's source, or a snapshot of a window of it.
    let source: any AudioSampleSource
    var emitted = 0
    let fadeIn: Int, fadeOut: Int
    /// The previous segment's continuation past its end; set when this state becomes current.
    var previousTail: AudioBuffer?
    /// A freeze frame's sound; held segments only.
    var held: HeldSound?
    // Stretched segments only.
    var processor: EngineProcessor?
    var fifo: PlanarFIFO
    var toDiscard = 0
    var sourceCursor = 0        // next source frame to feed (absolute)
    var finished = false
    /// Output frames kept before the segment's nominal start so that the join with the
    /// previous piece can be aligned (shifted by up to ± this many frames).
    let alignmentLead: Int
    /// Output frames this state produces in all: the segment, the continuation the next
    /// segment fades from, and the alignment margin on both sides.
    let framesNeeded: Int
    private let sampleRate: Int
    private let spectralEngine: SpectralEngine
    /// The source frame past which the processor is finished (far past the segment's end).
    private let lastFeed: Int
    /// The first piece of a split segment: where it tells the later pieces its anchored phases.
    private var anchorListeners: SegmentAnchorPhases?

    init(renderer: AudioRenderer, index: Int, source: any AudioSampleSource) throws {
        self.renderer = renderer
        self.index = index
        plan = renderer.plans[index]
        self.source = plan.reversed ? try ReversedAudioSource(source, mirror: plan.sourceStart + plan.sourceEnd - 1,
                                                               frames: Self.reversedWindow(of: plan, renderer: renderer)) : source
        fadeIn = renderer.fadeIn(index)
        fadeOut = renderer.fadeOut(index)
        fifo = renderer.leftovers.fifo(channelCount: renderer.channelCount)
        sampleRate = renderer.sampleRate
        spectralEngine = renderer.spectralEngine
        lastFeed = plan.sourceEnd + AudioRenderer.maximumLookBehind(sampleRate: sampleRate) / 2
        let tail = renderer.needsTail(index) ? renderer.fadeIn(index + 1) : 0
        if let hold = plan.hold {
            held = hold == .freeze
                ? try HeldSound(freezing: source, at: plan.sourceStart, sampleRate: sampleRate)
                : HeldSound(silenceFor: renderer.channelCount)
        }
        guard let alg = plan.algorithm else {
            alignmentLead = 0
            framesNeeded = plan.frameCount + tail
            return
        }
        let rate0 = 1 / plan.stretch.atStart
        processor = try renderer.leftovers.processor(alg, rate: rate0, pitch: plan.pitch)
            ?? Self.makeProcessor(alg, rate: rate0, pitch: plan.pitch, renderer: renderer)
        // Pre-roll: source before the segment (silence before the track), fed at the first fill.
        let pre = min(renderer.preroll(for: plan), max(0, plan.sourceStart))
        sourceCursor = plan.sourceStart - pre
        let preOutput = Int((Double(pre) / rate0).rounded())
        alignmentLead = plan.continuesPrevious && fadeIn > 0 ? min(renderer.maximumAlignmentShift, preOutput) : 0
        framesNeeded = 2 * alignmentLead + plan.frameCount + tail
        toDiscard = preOutput - alignmentLead
        if renderer.anchorsPhases(plan) { try anchorPhases(preroll: pre, prerollOutput: preOutput, rate: rate0) }
        // A piece renders whole before it is emitted: room for all of it at once.
        if plan.pieceCount > 1 { fifo.reserveCapacity(preOutput + framesNeeded) }
    }

    /// Anchors the engine's phases to continue the previous piece's (`PhaseAnchor`): at the
    /// frame whose window ends where this piece's output, alignment lead included, begins (or
    /// at the first frame, when the pre-roll is shorter than a window), where it waits for the
    /// first piece's. The first piece tells its phases at its anchor, at least a window into its
    /// input, or that it has none once it stops rendering.
    private func anchorPhases(preroll: Int, prerollOutput: Int, rate: Double) throws {
        guard let engine = processor?.stream.engine as? PhaseGradientEngine else { return }
        let chain = renderer.phaseAnchors
        let length = chain.window.length
        let first = PhaseGradientEngine.firstFramePosition(chain.window, rate: rate)
        let output = plan.pieceIndex == 0 ? max(first, Int((Double(length) / rate).rounded(.up)))
            : max(first, prerollOutput - alignmentLead - length / 2)
        let input = Int((Double(output) * rate).rounded())
        let inputStart = plan.sourceStart - preroll, outputStart = plan.outputStart - prerollOutput
        if plan.pieceIndex == 0 {
            let listeners = try chain.start(planIndex: index, sourceFrame: inputStart + input, outputFrame: outputStart + output,
                                            source: source, inputStart: inputStart)
            anchorListeners = listeners
            engine.anchor(input: input, output: output, phases: .observed { listeners.tell($0) })
        } else if let phases = try chain.anchor(planIndex: index, pieceIndex: plan.pieceIndex, sourceFrame: inputStart + input,
                                                outputFrame: outputStart + output, source: source, inputStart: inputStart) {
            let piece = plan.pieceIndex
            engine.anchor(input: input, output: output, phases: .given { phases.phases(forPiece: piece) })
        }
    }

    /// Tells the later pieces, if this is a split segment's first, that it has no anchored
    /// phases to give unless it has already given them: it renders no further.
    private func stopAnchoring() { anchorListeners?.tell(nil) }

    deinit { stopAnchoring() }

    /// The frames a reversed segment reads, in its mirrored numbering: its pre-roll, its own
    /// frames, and past them what its processor needs to hand out its last frames (its latency)
    /// and the continuation the next segment fades from; beyond, it reads silence. (The track
    /// behind the section's start is kept only so far back.)
    private static func reversedWindow(of plan: AudioRenderer.SegmentPlan, renderer: AudioRenderer) -> Range<Int> {
        let speed = max(1, 1 / plan.stretch.atStart)
        let latency = 4096 + renderer.sampleRate / 100 + renderer.crossfadeFrames
        return plan.sourceStart - renderer.preroll(for: plan) ..< plan.sourceEnd + Int(Double(latency) * speed) + 32768
    }

    /// Renders everything `emit(_:)` and `tail()` will take (on a worker thread), unless
    /// `cancelled` turns true first.
    func prepare(until cancelled: () -> Bool) throws {
        defer { stopAnchoring() }
        if processor != nil { try fill(framesNeeded, until: cancelled) }
    }

    private static func makeProcessor(_ alg: TimePitchAlgorithm, rate: Double, pitch semitones: Double,
                                      renderer: AudioRenderer) throws -> EngineProcessor {
        if alg == .lowLatency {
            // Made at the rate whose engine runs at 1 (the shift's ratio), then set unsnapped.
            let p = try LowLatencyProcessor(rate: PitchShift.ratio(semitones: semitones), sampleRate: renderer.sampleRate,
                                            channelCount: renderer.channelCount, pitch: semitones)
            p.setUnsnappedRate(rate)
            return p
        }
        return try alg.makeEngineProcessor(rate: rate, sampleRate: renderer.sampleRate,
                                           channelCount: renderer.channelCount,
                                           spectralEngine: renderer.spectralEngine, pitch: semitones)
    }

    private func setRate(_ rate: Double) throws {
        guard let p = processor else { return }
        if let ll = p as? LowLatencyProcessor { ll.setUnsnappedRate(rate) } else { try p.setRate(rate) }
    }

    /// Where, relative to the start of a block of `block` frames, the rate the processor
    /// is given for that block should be read on the ramp, so that it is applied where the
    /// map wants it. libsamplerate glides to the new ratio across the block (read at the
    /// block's end, less its filter delay of about 24 frames); Rubber Band R3 applies a
    /// new ratio to audio about 2000 frames (at 48 kHz) behind the input it is given (read
    /// that far back); the phase-gradient engine (exactly at the block's first frame),
    /// the WSOLA engine and the splicer apply it about where it is given (read mid-block).
    /// Measured with click trains through ramps (see RendererTests).
    private func scheduleOffset(block: Int) -> Int {
        switch plan.algorithm {
        case .varispeed: return block - 24 * sampleRate / 48000
        case .spectral where spectralEngine == .rubberBand: return block / 2 - 2000 * sampleRate / 48000
        default: return block / 2
        }
    }

    /// The rate the map has at source frame `position` (clamped to the segment).
    private func rate(at position: Int) -> Double {
        let length = plan.sourceEnd - plan.sourceStart
        guard !plan.stretch.isConstant, length > 0 else { return 1 / plan.stretch.atStart }
        return 1 / plan.stretch.value(at: Double(position - plan.sourceStart) / Double(length))
    }

    /// Feeds one block of source to the processor at the rate the map has there; the pre-roll
    /// before the segment goes in as one block at the segment's starting rate. Ramps change the
    /// rate every 1024 frames, eased ramps (which can be steep) every 256; a constant rate takes
    /// larger blocks (less overhead per frame).
    private func feed() throws {
        guard let p = processor, !finished else { return }
        let step = plan.stretch.isConstant ? 4096 : plan.stretch.isCurved ? 256 : 1024
        let block = sourceCursor < plan.sourceStart ? plan.sourceStart - sourceCursor : step
        let a = sourceCursor, b = sourceCursor + block
        let rate = self.rate(at: a + scheduleOffset(block: block))
        try setRate(rate)
        let input = try source.read(from: a, count: block)
        try p.process(input, into: &fifo)
        sourceCursor = b
        // Past the end of the source track by a wide margin: finish the stream.
        if sourceCursor > lastFeed {
            fifo.append(p.finish())
            finished = true
        }
    }

    /// Makes sure `fifo` holds at least `n` frames after the pre-roll discard.
    private func fill(_ n: Int, until cancelled: () -> Bool = { false }) throws {
        while !cancelled() {
            if toDiscard > 0 {
                let k = min(toDiscard, fifo.count)
                fifo.drop(k)
                toDiscard -= k
            }
            if toDiscard == 0 && fifo.count >= n { return }
            if finished {
                fifo.appendSilence(n - fifo.count)
                return
            }
            try feed()
        }
    }

    /// Drops the alignment lead, shifted so that this piece's start matches the previous
    /// piece's continuation best (see `JoinAlignment`).
    private func alignStart() throws {
        guard alignmentLead > 0 else { return }
        let lead = alignmentLead
        try fill(2 * lead + fadeIn)
        var shift = 0
        if let tail = previousTail {
            shift = JoinAlignment.bestShift(of: fifo.peek(2 * lead + fadeIn), against: tail, frames: fadeIn, maximumShift: lead,
                                            keeping: renderer.anchorsPhases(plan) ? JoinAlignment.anchoredMatch : .infinity)
        }
        fifo.drop(lead + shift)
    }

    func emit(_ n: Int) throws -> AudioBuffer {
        var out: AudioBuffer
        if processor == nil && held == nil {
            out = try renderer.source.read(from: plan.sourceStart + emitted, count: n)
        } else {
            if let held {
                out = held.next(n)
            } else {
                if emitted == 0 { try alignStart() }
                try fill(n)
                out = fifo.pop(n)
            }
            // Crossfade from the previous segment's continuation.
            if fadeIn > 0, emitted < fadeIn, let tail = previousTail {
                for c in 0..<out.channelCount {
                    out.crossfade(channel: c, with: tail.channels[c], otherOffset: emitted,
                                  frames: min(n, fadeIn - emitted), fadeLength: fadeIn, fadeStart: emitted,
                                  at: 0, fadingIn: true)
                }
            }
            // Crossfade into the next (copied) segment's lead-in.
            let fadeStart = plan.frameCount - fadeOut
            if fadeOut > 0 && emitted + n > fadeStart {
                let next = renderer.plans[index + 1]
                let lead = try renderer.source.read(from: next.sourceStart - fadeOut, count: fadeOut)
                let from = max(emitted, fadeStart)
                for c in 0..<out.channelCount {
                    // out = out·(1 − w) + lead·w over the last fadeOut frames.
                    out.crossfade(channel: c, with: lead.channels[c], otherOffset: from - fadeStart,
                                  frames: emitted + n - from, fadeLength: fadeOut,
                                  fadeStart: from - fadeStart, at: from - emitted, fadingIn: false)
                }
            }
        }
        emitted += n
        return out
    }

    /// The continuation past the segment's end, for the next segment's fade-in.
    func tail() throws -> AudioBuffer? {
        guard renderer.needsTail(index) else { return nil }
        let x = renderer.fadeIn(index + 1)
        if let held { return held.next(x) }
        if processor == nil {
            return try renderer.source.read(from: plan.sourceStart + plan.frameCount, count: x)
        }
        try fill(x)
        return fifo.pop(x)
    }
}
