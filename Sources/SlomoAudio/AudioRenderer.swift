import Foundation
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
/// Long spectral and time-domain segments (the costly ones) are split into pieces of a few
/// seconds that render concurrently, `parallelism` at a time. Each piece starts its own
/// stretcher with a pre-roll; at a join between pieces the later one is aligned to the earlier
/// one's continuation (`JoinAlignment`, at most ±5 ms) and crossfaded. Where pieces fall depends
/// only on the map, never on the number of cores, so the output is the same on every machine.
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
        /// Output seconds per source second (1/rate) over the segment.
        public let stretch: StretchCurve
        /// The algorithm, or nil when the segment is copied (constant rate 1) or held.
        public let algorithm: TimePitchAlgorithm?
        /// For a freeze frame, what is heard (the segment reads no source); nil otherwise.
        public var hold: Freeze.Audio? = nil
        /// True for a reversed section: its source frames play last first (`ReversedAudioSource`),
        /// always through its algorithm (so its cuts are crossfaded), never split into pieces.
        public var reversed = false
        /// Semitones the section's pitch shift moves every frequency by (0: none); a shifted
        /// segment is never copied.
        public var pitch = 0.0
        /// Which piece of its map segment this is, and of how many (1 when not split).
        public let pieceIndex: Int
        public let pieceCount: Int
        public var frameCount: Int { outputEnd - outputStart }
        var isCopy: Bool { algorithm == nil && hold == nil }
        /// A later piece of a split segment: its start is aligned to the previous piece.
        var continuesPrevious: Bool { pieceIndex > 0 }
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
    /// How many pieces of split segments render at the same time.
    public let parallelism: Int
    /// Source frames fed before a stretched segment (at most `prerollFrames`; anchored pieces
    /// need less: `preroll(for:)`).
    let preroll: Int
    /// The engine of spectral segments.
    public let spectralEngine: SpectralEngine
    /// How far (frames) a piece may be shifted to align with the previous one: 5 ms.
    let maximumAlignmentShift: Int

    let source: any AudioSampleSource
    private let firstOutputFrame: Int
    private var segmentIndex = 0
    private var currentSegment: SegmentRendering?
    /// The previous segment's continuation past its end, for the crossfade into a stretched
    /// segment.
    private var previousTail: AudioBuffer?
    /// Pieces being rendered ahead, by plan index, and the last plan index dispatched.
    private var ahead: [Int: PieceJob] = [:]
    private var lastDispatched = -1
    /// FIFOs and processors of finished segments, for the next ones.
    var leftovers: SegmentLeftovers
    /// The phase anchors of pieces on the phase-gradient engine (made when the first is needed).
    lazy var phaseAnchors = PhaseAnchorChain(sampleRate: sampleRate, channelCount: channelCount)

    /// Source frames fed before a stretched segment so the processor is warmed up (unless the
    /// renderer is asked for less).
    static let prerollFrames = 8192

    /// How far back (in frames) the renderer may read behind the furthest frame it has read.
    public static func maximumLookBehind(sampleRate: Int) -> Int {
        // Post-roll of a stretcher at rate 32 (latency + crossfade, in source frames), the
        // pre-roll, and margin; at least 8 s.
        let latency = 4096 + sampleRate / 100
        return max(latency * 32 + prerollFrames + sampleRate, 8 * sampleRate)
    }

    /// - Parameters:
    ///   - map: the time map; source time `t` is source frame `round((t − sourceTimeOfFrameZero)·sr)`.
    ///   - source: the source track.
    ///   - algorithm: used for segments whose `audio` is nil.
    ///   - spectralEngine: the engine of spectral segments (default: slomo's phase-gradient engine).
    ///   - crossfade: seconds of crossfade at joins (default 10 ms).
    ///   - parallelism: pieces rendered at the same time (default: the active processor count).
    ///   - prerollSeconds: source fed before a stretched segment to warm its processor up (nil:
    ///     `prerollFrames`, the most). A player asks less: starting a stream is then quicker.
    /// - Throws: `AudioError` when a segment's rate is outside its algorithm's range.
    public init(map: TimeMap, source: any AudioSampleSource, sampleRate: Int,
                algorithm: TimePitchAlgorithm = .spectral, spectralEngine: SpectralEngine = .defaultEngine,
                sourceTimeOfFrameZero: MediaTime = .zero, crossfade: Double = 0.010,
                parallelism: Int = ProcessInfo.processInfo.activeProcessorCount, prerollSeconds: Double? = nil) throws {
        try checkFormat(sampleRate: sampleRate, channelCount: source.channelCount)
        self.sampleRate = sampleRate
        self.parallelism = max(1, parallelism)
        preroll = min(Self.prerollFrames, prerollSeconds.map { Int($0 * Double(sampleRate)) } ?? Self.prerollFrames)
        self.spectralEngine = spectralEngine
        leftovers = SegmentLeftovers(capacity: self.parallelism + 2)
        maximumAlignmentShift = sampleRate / 200
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
            if case .hold(let sound) = seg.shape {
                let at = try frame(seg.source.start) - zero
                var plan = SegmentPlan(outputStart: try frame(seg.output.start), outputEnd: try frame(seg.output.end),
                                       sourceStart: at, sourceEnd: at, stretch: StretchCurve(samples: [0, 0]),
                                       algorithm: nil, pieceIndex: 0, pieceCount: 1)
                plan.hold = sound
                plans.append(plan)
                continue
            }
            func stretch(at sourceFrame: Int) -> Double {
                seg.stretch(at: MediaTime(value: Int64(sourceFrame + zero), timescale: Int64(sampleRate)))
            }
            let stretch0 = seg.shape.startStretch!.doubleValue, stretch1 = seg.shape.endStretch!.doubleValue    // not a hold
            let pitch = seg.pitch ?? 0, pitchRatio = PitchShift.ratio(semitones: pitch)
            let copy: Bool
            if case .constant(let r) = seg.shape, r == .normal, pitch == 0 { copy = true } else { copy = false }
            let sourceStart = try frame(seg.source.start) - zero, sourceEnd = try frame(seg.source.end) - zero
            let alg = seg.audio ?? algorithm
            if !copy {
                if pitch != 0, alg == .varispeed {
                    throw AudioError(.invalidRate, "varispeed's pitch follows its rate, so it cannot be shifted on its own")
                        .about("segment \(i + 1) (source \(seg.source))")
                }
                // A shifted segment's engine stretches `pitchRatio` times more.
                for s in [stretch0, stretch1] {
                    do { _ = try alg.validatedRate(1 / s / pitchRatio) } catch let e as AudioError {
                        throw e.about("segment \(i + 1) (source \(seg.source))")
                    }
                }
            }
            if seg.isReversed {
                var plan = SegmentPlan(outputStart: try frame(seg.output.start), outputEnd: try frame(seg.output.end),
                                       sourceStart: sourceStart, sourceEnd: sourceEnd, stretch: StretchCurve(samples: [stretch0, stretch1]),
                                       algorithm: alg, pieceIndex: 0, pieceCount: 1)
                plan.reversed = true
                plan.pitch = pitch
                plans.append(plan)
                continue
            }
            let curve: StretchCurve
            if case .eased = seg.shape {
                curve = StretchCurve(sampling: stretch, from: sourceStart, to: sourceEnd, count: StretchCurve.easedSamples)
            } else {
                curve = StretchCurve(samples: [stretch0, stretch1])
            }
            var whole = SegmentPlan(
                outputStart: try frame(seg.output.start), outputEnd: try frame(seg.output.end),
                sourceStart: sourceStart, sourceEnd: sourceEnd, stretch: curve, algorithm: copy ? nil : alg,
                pieceIndex: 0, pieceCount: 1)
            whole.pitch = pitch
            plans += try Self.pieces(of: whole, sampleRate: sampleRate, stretch: stretch) { sourceFrame in
                try frame(seg.outputTime(at: MediaTime(value: Int64(sourceFrame + zero), timescale: Int64(sampleRate))))
            }
        }
        self.plans = plans.filter { $0.frameCount > 0 }
        firstOutputFrame = plans.first?.outputStart ?? 0
        outputFrameCount = (plans.last?.outputEnd ?? 0) - firstOutputFrame
    }

    deinit {
        for job in ahead.values { job.cancel() }
    }

    /// Renders an in-memory track through `map` in one call.
    public static func render(_ track: AudioBuffer, sampleRate: Int, through map: TimeMap,
                              algorithm: TimePitchAlgorithm = .spectral,
                              spectralEngine: SpectralEngine = .defaultEngine,
                              sourceTimeOfFrameZero: MediaTime = .zero) throws -> AudioBuffer {
        let r = try AudioRenderer(map: map, source: InMemoryAudioSource(track), sampleRate: sampleRate,
                                  algorithm: algorithm, spectralEngine: spectralEngine,
                                  sourceTimeOfFrameZero: sourceTimeOfFrameZero)
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
        if parallelism > 1 { try dispatchAhead() }
        if currentSegment == nil { currentSegment = try makeRendering(segmentIndex) }
        let state = currentSegment!
        let n = min(maxFrames, plan.frameCount - state.emitted)
        let block = try state.emit(n)
        deliveredFrames += block.frameCount
        if state.emitted == plan.frameCount {
            previousTail = try state.tail()
            leftovers.keep(state)
            currentSegment = nil
            segmentIndex += 1
        }
        return block
    }

    /// The state for plan `i`, with the previous segment's continuation: rendered ahead on a
    /// worker for pieces of split segments, lazily on this thread otherwise.
    private func makeRendering(_ i: Int) throws -> SegmentRendering {
        let state = try ahead.removeValue(forKey: i)?.wait()
            ?? SegmentRendering(renderer: self, index: i, source: source)
        state.previousTail = previousTail
        return state
    }

    /// Starts the next pieces of split segments on workers, in order, keeping at most one
    /// more than `parallelism` rendered ahead (the extra one renders while this thread emits
    /// and encodes). A piece is started as soon as reading its window keeps every read this
    /// thread still has to make within the source's look-behind: at once when only pieces lie
    /// between it and the current plan (pieces read no source), otherwise when its window
    /// ends within the look-behind (less 1 s) of the current plan's earliest read.
    private func dispatchAhead() throws {
        let lookBehind = Self.maximumLookBehind(sampleRate: sampleRate) - sampleRate
        let earliestRead = plans[segmentIndex].sourceStart - preroll - crossfadeFrames
        while ahead.count <= parallelism && lastDispatched + 1 < plans.count {
            let k = max(lastDispatched + 1, segmentIndex)
            if plans[k].pieceCount == 1 {
                lastDispatched = k   // rendered lazily when it is current
                continue
            }
            let onlyPiecesBefore = (segmentIndex..<k).allSatisfy { plans[$0].pieceCount > 1 }
            let window = windowRange(for: k)
            guard onlyPiecesBefore || window.upperBound - earliestRead <= lookBehind else { return }
            let job = PieceJob(try SegmentRendering(renderer: self, index: k, source: try source.snapshot(of: window)))
            job.start()
            ahead[k] = job
            lastDispatched = k
        }
    }

    /// The source frames a piece reads: its pre-roll, its frames, its continuation and
    /// alignment margins, and the stretcher's look-ahead at any rate.
    private func windowRange(for i: Int) -> Range<Int> {
        let plan = plans[i]
        let start = plan.sourceStart - min(preroll(for: plan), max(0, plan.sourceStart))
        let fastest = plan.hold == nil ? max(1, plan.stretch.fastestRate) : 1
        let beyond = Int(Double(crossfadeFrames + 2 * maximumAlignmentShift + 8192) * fastest) + 32768
        return start..<(plan.sourceEnd + beyond)
    }

    /// Crossfade length used at the start and end of segment `i`.
    func fadeIn(_ i: Int) -> Int {
        guard i > 0, !plans[i].isCopy else { return 0 }
        return min(crossfadeFrames, plans[i].frameCount / 2)
    }
    func fadeOut(_ i: Int) -> Int {
        guard i + 1 < plans.count, !plans[i].isCopy, plans[i + 1].isCopy else { return 0 }
        return min(crossfadeFrames, plans[i].frameCount / 2)
    }
    /// Source frames fed before `plan`'s processor: `preroll`, or for a later piece of a split
    /// segment anchored to the one before it only what its anchored frame needs.
    func preroll(for plan: SegmentPlan) -> Int {
        guard anchorsPhases(plan), plan.pieceIndex > 0 else { return preroll }
        // The anchor chain's window (the chain is made for the piece's anchor anyway), not a
        // new one for each of the three times a piece's pre-roll is asked.
        return min(preroll, PhaseGradientEngine.anchoredPreroll(phaseAnchors.window, sampleRate: sampleRate,
                                                                rate: 1 / plan.stretch.atStart, lead: maximumAlignmentShift))
    }
    /// Whether a segment's processor is anchored to continue the previous piece's phases
    /// (`PhaseAnchor`): pieces of split segments on the phase-gradient engine, unshifted.
    func anchorsPhases(_ plan: SegmentPlan) -> Bool {
        plan.pieceCount > 1 && plan.algorithm == .spectral && spectralEngine == .phaseGradient && plan.pitch == 0
    }
    /// Whether segment `i` must provide a tail past its end (the next segment fades from it).
    func needsTail(_ i: Int) -> Bool { i + 1 < plans.count && fadeIn(i + 1) > 0 }
}

/// Raised-cosine weight rising from 0 to 1 over `length` frames, at frame `i`.
@inline(__always) func fadeWeight(_ i: Int, _ length: Int) -> Float {
    let x = (Double(i) + 0.5) / Double(length)
    return Float(0.5 - 0.5 * cos(Double.pi * x))
}

extension AudioBuffer {
    /// Crossfades `frames` frames of channel `c`, from `at`, with `other` (read from
    /// `otherOffset`, silence past its end): self·w + other·(1−w) when this buffer fades in,
    /// self·(1−w) + other·w when it fades out, with w the weight at fade position fadeStart + j.
    mutating func crossfade(channel c: Int, with other: [Float], otherOffset: Int, frames: Int,
                            fadeLength: Int, fadeStart: Int, at: Int, fadingIn: Bool) {
        guard frames > 0 else { return }
        var ch = channels[c]
        for j in 0..<frames {
            let w = fadeWeight(fadeStart + j, fadeLength)
            let (mine, theirs) = fadingIn ? (w, 1 - w) : (1 - w, w)
            let o = otherOffset + j < other.count ? other[otherOffset + j] : 0
            ch[at + j] = ch[at + j] * mine + o * theirs
        }
        replaceChannel(c, with: ch)
    }
}
