import SlomoCore

/// Renders an audio track through a `TimeMap`, sample-exactly.
///
/// Output frame `k` plays at output time `k / sampleRate`. Segment `i` of the map gets exactly
/// `round(outEnd·sr) − round(outStart·sr)` frames, so the total is
/// `round(mapEnd·sr) − round(mapStart·sr)` and no segment drifts. Segments at a constant rate
/// of 1 copy their source samples untouched; other segments run through a processor of their
/// algorithm (the segment's `audio`, or the renderer's default) with its latency compensated
/// and a pre-roll of source audio before the segment, and ramps change the processor's rate
/// block by block along the map's own ramp curve. Joins are crossfaded over `crossfadeFrames`
/// (10 ms); the crossfade always lies inside the stretched side of a join, so rate-1 audio is
/// never touched.
///
/// Streaming: `nextBlock(maxFrames:)` returns the output in order, block by block; memory stays
/// bounded for any track length (the source needs only `maximumLookBehind` frames of history).
/// `render(_:sampleRate:through:)` does it all for an in-memory track.
public final class AudioRenderer {
    /// A segment as the renderer sees it, in frames.
    public struct SegmentPlan: Sendable, Hashable {
        /// Output frames `outputStart ..< outputEnd` (absolute, from output time 0).
        public let outputStart: Int
        public let outputEnd: Int
        /// Source frames the segment starts and ends at (rounded source times).
        public let sourceStart: Int
        public let sourceEnd: Int
        /// Output seconds per source second at the start and end (1/rate); equal when constant.
        public let stretchAtStart: Double
        public let stretchAtEnd: Double
        /// The algorithm, or nil when the segment is copied (constant rate 1).
        public let algorithm: TimePitchAlgorithm?
        public var frameCount: Int { outputEnd - outputStart }
        var isCopy: Bool { algorithm == nil }
    }

    public let sampleRate: Int
    public let channelCount: Int
    public let plans: [SegmentPlan]
    /// Crossfade length at joins, in frames.
    public let crossfadeFrames: Int
    /// Total output frames: `round(mapEnd·sr) − round(mapStart·sr)`.
    public let outputFrameCount: Int
    /// Output frames delivered so far.
    public private(set) var deliveredFrames = 0

    private let source: any AudioSampleSource
    private let firstOutputFrame: Int
    private var segmentIndex = 0
    private var segmentState: SegmentState?
    /// The previous segment's continuation past its end, for the crossfade into a stretched
    /// segment.
    private var previousTail: AudioBuffer?

    /// Source frames fed before a stretched segment so the processor is warmed up.
    static let prerollFrames = 8192

    /// How far back (in frames) the renderer may read behind the furthest frame it has read.
    public static func maximumLookBehind(sampleRate: Int) -> Int {
        // Post-roll of a stretcher at rate 32 (latency + crossfade, in source frames), the
        // pre-roll, and margin; at least 8 s (SoundTouch holds long sequences at high tempo).
        let latency = 4096 + sampleRate / 100
        return max(latency * 32 + prerollFrames + sampleRate, 8 * sampleRate)
    }

    /// - Parameters:
    ///   - map: the time map; source time `t` is source frame `round((t − sourceTimeOfFrameZero)·sr)`.
    ///   - source: the source track.
    ///   - algorithm: used for segments whose `audio` is nil.
    ///   - crossfade: seconds of crossfade at joins (default 10 ms).
    /// - Throws: `AudioError` when a segment's rate is outside its algorithm's range.
    public init(map: TimeMap, source: any AudioSampleSource, sampleRate: Int,
                algorithm: TimePitchAlgorithm = .spectral, sourceTimeOfFrameZero: MediaTime = .zero,
                crossfade: Double = 0.010) throws {
        try checkFormat(sampleRate: sampleRate, channelCount: source.channelCount)
        self.sampleRate = sampleRate
        self.channelCount = source.channelCount
        self.source = source
        crossfadeFrames = max(1, Int((crossfade * Double(sampleRate)).rounded()))
        let base = Rational(1, Int64(sampleRate))
        func frame(_ t: MediaTime) throws -> Int {
            Int(try t.ticks(in: base, rounding: .nearest))
        }
        let zero = try frame(sourceTimeOfFrameZero)
        var plans: [SegmentPlan] = []
        for (i, seg) in map.segments.enumerated() {
            let stretch0: Double, stretch1: Double
            switch seg.shape {
            case .constant(let r): stretch0 = r.stretch.doubleValue; stretch1 = stretch0
            case .ramp(let a, let b): stretch0 = a.stretch.doubleValue; stretch1 = b.stretch.doubleValue
            }
            let copy: Bool
            if case .constant(let r) = seg.shape, r == .normal { copy = true } else { copy = false }
            let alg = seg.audio ?? algorithm
            if !copy {
                for s in [stretch0, stretch1] {
                    do { _ = try alg.validatedRate(1 / s) } catch let e as AudioError {
                        throw AudioError(e.kind, "segment \(i + 1) (source \(seg.source)): \(e.problem)")
                    }
                }
            }
            plans.append(SegmentPlan(
                outputStart: try frame(seg.output.start), outputEnd: try frame(seg.output.end),
                sourceStart: try frame(seg.source.start) - zero, sourceEnd: try frame(seg.source.end) - zero,
                stretchAtStart: stretch0, stretchAtEnd: stretch1, algorithm: copy ? nil : alg))
        }
        self.plans = plans.filter { $0.frameCount > 0 }
        firstOutputFrame = plans.first?.outputStart ?? 0
        outputFrameCount = (plans.last?.outputEnd ?? 0) - firstOutputFrame
    }

    /// Renders an in-memory track through `map` in one call.
    public static func render(_ track: AudioBuffer, sampleRate: Int, through map: TimeMap,
                              algorithm: TimePitchAlgorithm = .spectral,
                              sourceTimeOfFrameZero: MediaTime = .zero) throws -> AudioBuffer {
        let r = try AudioRenderer(map: map, source: InMemoryAudioSource(track), sampleRate: sampleRate,
                                  algorithm: algorithm, sourceTimeOfFrameZero: sourceTimeOfFrameZero)
        return try r.renderAll()
    }

    /// All remaining output.
    public func renderAll() throws -> AudioBuffer {
        var out = AudioBuffer(channelCount: channelCount)
        while let b = try nextBlock(maxFrames: 65536) { out.append(b) }
        return out
    }

    /// The next at most `maxFrames` frames of output, in order; nil when all
    /// `outputFrameCount` frames have been delivered.
    public func nextBlock(maxFrames: Int = 8192) throws -> AudioBuffer? {
        precondition(maxFrames > 0)
        guard segmentIndex < plans.count else { return nil }
        let plan = plans[segmentIndex]
        if segmentState == nil { segmentState = try SegmentState(renderer: self, index: segmentIndex) }
        let state = segmentState!
        let n = min(maxFrames, plan.frameCount - state.emitted)
        let block = try state.emit(n)
        deliveredFrames += block.frameCount
        if state.emitted == plan.frameCount {
            previousTail = try state.tail()
            segmentState = nil
            segmentIndex += 1
        }
        return block
    }

    /// Crossfade length used at the start and end of segment `i`.
    fileprivate func fadeIn(_ i: Int) -> Int {
        guard i > 0, !plans[i].isCopy else { return 0 }
        return min(crossfadeFrames, plans[i].frameCount / 2)
    }
    fileprivate func fadeOut(_ i: Int) -> Int {
        guard i + 1 < plans.count, !plans[i].isCopy, plans[i + 1].isCopy else { return 0 }
        return min(crossfadeFrames, plans[i].frameCount / 2)
    }
    /// Whether segment `i` must provide a tail past its end (the next segment fades from it).
    fileprivate func needsTail(_ i: Int) -> Bool { i + 1 < plans.count && fadeIn(i + 1) > 0 }

    /// Rendering state of one segment.
    fileprivate final class SegmentState {
        unowned let renderer: AudioRenderer
        let index: Int
        let plan: SegmentPlan
        var emitted = 0
        let fadeIn: Int, fadeOut: Int
        let previousTail: AudioBuffer?
        // Stretched segments only.
        var processor: (any TimePitchProcessor)?
        var fifo: PlanarFIFO
        var toDiscard = 0
        var sourceCursor = 0        // next source frame to feed (absolute)
        var finished = false
        var tailFrames: AudioBuffer?

        init(renderer: AudioRenderer, index: Int) throws {
            self.renderer = renderer
            self.index = index
            plan = renderer.plans[index]
            fadeIn = renderer.fadeIn(index)
            fadeOut = renderer.fadeOut(index)
            previousTail = renderer.previousTail
            fifo = PlanarFIFO(channelCount: renderer.channelCount)
            guard let alg = plan.algorithm else { return }
            let rate0 = 1 / plan.stretchAtStart
            let p = try makeProcessor(alg, rate: rate0)
            processor = p
            // Pre-roll: source before the segment (silence before the track).
            let pre = min(AudioRenderer.prerollFrames, max(0, plan.sourceStart))
            if pre > 0 {
                let block = try renderer.source.read(from: plan.sourceStart - pre, count: pre)
                fifo.append(try p.process(block))
            }
            toDiscard = Int((Double(pre) / rate0).rounded())
            sourceCursor = plan.sourceStart
        }

        private func makeProcessor(_ alg: TimePitchAlgorithm, rate: Double) throws -> any TimePitchProcessor {
            if alg == .lowLatency {
                let p = try LowLatencyProcessor(rate: 1, sampleRate: renderer.sampleRate,
                                                channelCount: renderer.channelCount)
                p.setUnsnappedRate(rate)
                return p
            }
            return try alg.makeProcessor(rate: rate, sampleRate: renderer.sampleRate,
                                         channelCount: renderer.channelCount)
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
        /// that far back); SoundTouch and the splicer apply it about where it is given (read
        /// mid-block). Measured with click trains through ramps (see RendererTests).
        private func scheduleOffset(block: Int) -> Int {
            switch plan.algorithm {
            case .varispeed: return block - 24 * renderer.sampleRate / 48000
            case .spectral: return block / 2 - 2000 * renderer.sampleRate / 48000
            default: return block / 2
            }
        }

        /// The rate the map has at source frame `position` (clamped to the segment).
        private func rate(at position: Int) -> Double {
            let length = plan.sourceEnd - plan.sourceStart
            guard plan.stretchAtStart != plan.stretchAtEnd, length > 0 else { return 1 / plan.stretchAtStart }
            let x = Double(min(max(position - plan.sourceStart, 0), length)) / Double(length)
            return 1 / (plan.stretchAtStart + (plan.stretchAtEnd - plan.stretchAtStart) * x)
        }

        /// Feeds one block of source to the processor at the rate the map has there.
        private func feed() throws {
            guard let p = processor, !finished else { return }
            let block = 1024
            let a = sourceCursor, b = sourceCursor + block
            let rate = self.rate(at: a + scheduleOffset(block: block))
            try setRate(rate)
            let input = try renderer.source.read(from: a, count: block)
            fifo.append(try p.process(input))
            sourceCursor = b
            // Past the end of the source track by a wide margin: finish the stream.
            if sourceCursor > plan.sourceEnd + AudioRenderer.maximumLookBehind(sampleRate: renderer.sampleRate) / 2 {
                fifo.append(p.finish())
                finished = true
            }
        }

        /// Makes sure `fifo` holds at least `n` frames after the pre-roll discard.
        private func fill(_ n: Int) throws {
            while true {
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

        func emit(_ n: Int) throws -> AudioBuffer {
            var out: AudioBuffer
            if processor == nil {
                out = try renderer.source.read(from: plan.sourceStart + emitted, count: n)
            } else {
                try fill(n)
                out = fifo.pop(n)
                // Crossfade from the previous segment's continuation.
                if fadeIn > 0, emitted < fadeIn, let tail = previousTail {
                    for c in 0..<out.channelCount {
                        out.mixFade(channel: c, from: tail.channels[c], sourceOffset: emitted,
                                    frames: min(n, fadeIn - emitted), fadeLength: fadeIn, fadeStart: emitted, into: 0)
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
                        out.mixFade(channel: c, into: lead.channels[c], leadOffset: from - fadeStart,
                                    frames: emitted + n - from, fadeLength: fadeOut,
                                    fadeStart: from - fadeStart, at: from - emitted)
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
            if processor == nil {
                return try renderer.source.read(from: plan.sourceStart + plan.frameCount, count: x)
            }
            try fill(x)
            return fifo.pop(x)
        }
    }
}

/// Raised-cosine weight rising from 0 to 1 over `length` frames, at frame `i`.
@inline(__always) func fadeWeight(_ i: Int, _ length: Int) -> Float {
    let x = (Double(i) + 0.5) / Double(length)
    return Float(0.5 - 0.5 * cos(Double.pi * x))
}

extension AudioBuffer {
    /// Fade-in over a previous signal: self[into + j] = prev[sourceOffset + j]·(1−w) + self·w,
    /// with w the weight at fade position fadeStart + j.
    mutating func mixFade(channel c: Int, from prev: [Float], sourceOffset: Int, frames: Int,
                          fadeLength: Int, fadeStart: Int, into: Int) {
        guard frames > 0 else { return }
        var ch = channels[c]
        for j in 0..<frames {
            let w = fadeWeight(fadeStart + j, fadeLength)
            let p = sourceOffset + j < prev.count ? prev[sourceOffset + j] : 0
            ch[into + j] = p * (1 - w) + ch[into + j] * w
        }
        replaceChannel(c, with: ch)
    }

    /// Fade-out into a following signal: self[at + j] = self·(1−w) + lead[leadOffset + j]·w.
    mutating func mixFade(channel c: Int, into lead: [Float], leadOffset: Int, frames: Int,
                          fadeLength: Int, fadeStart: Int, at: Int) {
        guard frames > 0 else { return }
        var ch = channels[c]
        for j in 0..<frames {
            let w = fadeWeight(fadeStart + j, fadeLength)
            ch[at + j] = ch[at + j] * (1 - w) + lead[leadOffset + j] * w
        }
        replaceChannel(c, with: ch)
    }
}

import Foundation
