import Foundation

/// slomo's own spectral time stretcher: a phase vocoder whose synthesis phases come from
/// phase-gradient heap integration (`HeapPhaseIntegrator`), with a Gaussian window
/// (`PhaseGradientWindow`) and FFTW transforms.
///
/// Frames are placed on the output at `baseHop` apart for slow-downs (`baseHop`·rate apart
/// on the input for speed-ups) and each reads the input where the time map puts it: the map
/// is kept as exact segments (input frame where a rate starts, output position there, rate),
/// so no position is accumulated frame by frame. Output frame 0 is input frame 0 (no start
/// delay). The overlap-add is normalised by the summed squared window, which makes any
/// sequence of hops, and a rate of 1, reconstruct exactly.
///
/// Channels share one synthesis phase, integrated on their sum; each channel keeps its own
/// analysis phase offset to that sum, so inter-channel delays and phases survive.
final class PhaseGradientEngine: StretchEngine {
    let channelCount: Int
    let startDelay = 0
    private let analyser: SpectrumAnalyser
    private let window: PhaseGradientWindow
    /// The analyser's transform, used for synthesis too.
    private let fft: RealFFT
    private var integrator: HeapPhaseIntegrator
    private var onsets: OnsetDetector
    /// Whether frames near sustained onsets hold their magnitude at `rate` (see `place`): below
    /// 0.25x, where a frame slides slowly across an onset, and when speeding up, where a frame's
    /// window spans more output time than the attack; not at 0.25–1x, where an attack's −20 dB
    /// point lands within 2 ms as it is.
    static func holdsOnsets(at rate: Double) -> Bool { rate < 0.25 || rate > 1 }
    /// Frames between a held frame and the extra analysis that measures its frequencies.
    static let probeHop = 16
    /// How far after an onset a held frame is centred: its window then barely reaches back
    /// across the onset (2σ).
    private let holdDistance: Int
    /// The raised-cosine rise (1 ms) of a frame held after an attack, up to the attack's mapped time.
    private let attackFade: [Float]

    /// Where each rate starts: the first input frame it applies to, and that frame's output
    /// position.
    private struct Segment {
        var inputStart: Int
        var outputStart: Double
        var rate: Double
    }
    private var segments: [Segment] = []
    /// Frames placed at a given output position, reading a given input frame (`PhaseAnchor`),
    /// in this engine's frames and in output order, until they are placed.
    private var anchors: [(input: Int, output: Int, phases: AnchoredPhases)] = []
    /// The first onset that frames may still be placed after.
    private var onsetIndex = 0
    private var rate: Double

    // Input: samples `inputBase ..< pushed` are held; outside them the input is silent.
    private var input: [[Float]]
    private var inputBase = 0
    private var pushed = 0
    private var ended = false

    // Frames: `previous` is synthesised, `current` waits for `next` (its instantaneous
    // frequency is a centred difference).
    private var previous: SpectrumFrame?
    private var current: SpectrumFrame?
    private var spare: [SpectrumFrame] = []
    /// Output position of the next frame to analyse.
    private var nextOutputPosition = 0

    // Output: the overlap-add accumulators for output frames `outputBase ..< outputBase + count`.
    private var accumulator: [[Float]]
    private var normaliser: [Float] = []
    private var outputBase = 0
    /// Each bin's synthesis rotation (cos, sin), shared by the channels of a frame.
    private let rotationScratch: UnsafeMutablePointer<Float>

    init(sampleRate: Int, channelCount: Int, rate: Double) {
        self.channelCount = channelCount
        self.rate = rate
        analyser = SpectrumAnalyser(sampleRate: sampleRate)
        window = analyser.window
        fft = analyser.fft
        integrator = HeapPhaseIntegrator(window: window)
        rotationScratch = .allocate(capacity: 2 * window.binCount)
        holdDistance = Self.holdDistance(window)
        let fadeLength = max(1, sampleRate / 1000)
        attackFade = (0..<fadeLength).map { fadeWeight($0, fadeLength) }
        onsets = Self.onsetDetector(window, sampleRate: sampleRate)
        input = Array(repeating: [], count: channelCount)
        accumulator = Array(repeating: [], count: channelCount)
        reset()
    }

    deinit { rotationScratch.deallocate() }

    func reset() {
        segments = [Segment(inputStart: 0, outputStart: 0, rate: rate)]
        for c in 0..<channelCount {
            input[c].removeAll(keepingCapacity: true)
            accumulator[c].removeAll(keepingCapacity: true)
        }
        normaliser.removeAll(keepingCapacity: true)
        inputBase = 0
        pushed = 0
        ended = false
        for f in [previous, current].compactMap({ $0 }) { spare.append(f) }
        previous = nil
        current = nil
        integrator.reset()
        onsets.reset()
        onsetIndex = 0
        anchors = []
        nextOutputPosition = Self.firstFramePosition(window, rate: rate)
        outputBase = nextOutputPosition - window.length / 2
    }

    func setRate(_ newRate: Double) {
        guard newRate != rate else { return }
        rate = newRate
        let last = segments[segments.count - 1]
        if last.inputStart == pushed {
            segments[segments.count - 1].rate = newRate
        } else {
            segments.append(Segment(inputStart: pushed,
                                    outputStart: last.outputStart + Double(pushed - last.inputStart) / last.rate,
                                    rate: newRate))
        }
    }

    private static func holdDistance(_ window: PhaseGradientWindow) -> Int { Int(0.24 * Double(window.length)) }

    private static func onsetDetector(_ window: PhaseGradientWindow, sampleRate: Int) -> OnsetDetector {
        OnsetDetector(sampleRate: sampleRate, sustain: holdDistance(window) + window.length / 8)
    }

    /// The source frames to feed, at `rate`, before a piece whose frame with a window ending
    /// `lead` output frames before the piece's output is anchored (`anchor`): the anchored frame
    /// and the one before it, which its frequencies are read against, then read whole windows
    /// of input, and where onsets are held at that rate, the onset detector has heard what it
    /// needs to find those that move them. Frames before the anchored one add nothing the
    /// piece keeps. `window` is the engine's at `sampleRate`.
    static func anchoredPreroll(_ window: PhaseGradientWindow, sampleRate: Int, rate: Double, lead: Int) -> Int {
        let half = window.length / 2
        let beforeAnchor = Int((rate * Double(lead + half + hop(window, at: rate))).rounded(.up))
        let heard = holdsOnsets(at: rate) ? onsetDetector(window, sampleRate: sampleRate).memory + holdDistance(window) : 0
        return beforeAnchor + max(half, heard)
    }

    /// Output frames between frames placed at `rate`.
    private func hop(at rate: Double) -> Int { Self.hop(window, at: rate) }

    private static func hop(_ window: PhaseGradientWindow, at rate: Double) -> Int {
        max(1, Int((Double(window.baseHop) / max(rate, 1)).rounded()))
    }

    /// The output position of the first frame at `rate`: the first whose window reaches output
    /// frame 0 from before it.
    static func firstFramePosition(_ window: PhaseGradientWindow, rate: Double) -> Int {
        -window.length / 2 + hop(window, at: rate)
    }

    /// The synthesis phases of an anchored frame.
    enum AnchoredPhases {
        /// Given (when the frame is placed; the call may wait for them) instead of integrated:
        /// frames after it integrate on from them. Nil: integrated after all.
        case given(() -> [Float]?)
        /// Integrated, then told.
        case observed(([Float]) -> Void)
    }

    /// Places a frame at output position `output` (not before the first frame's), reading input
    /// frame `input`, with `phases`. Anchors are set after `reset()`, before the first push,
    /// in order.
    func anchor(input: Int, output: Int, phases: AnchoredPhases) {
        precondition(pushed == 0 && output >= (anchors.last?.output ?? nextOutputPosition),
                     "anchors are set before the first push, in order, at or after the first frame")
        anchors.append((input, output, phases))
    }

    /// The segment of the map that output position `q` falls in, and `q`'s input frame.
    private func inputPosition(ofOutput q: Int) -> (Int, Double) {
        var i = segments.count - 1
        while i > 0 && segments[i].outputStart > Double(q) { i -= 1 }
        let s = segments[i]
        let p = Double(s.inputStart) + (Double(q) - s.outputStart) * s.rate
        return (Int(p.rounded()), s.rate)
    }

    /// Output position of input frame `p` (a frame already pushed, or the end).
    private func outputPosition(ofInput p: Int) -> Double {
        var i = segments.count - 1
        while i > 0 && segments[i].inputStart > p { i -= 1 }
        let s = segments[i]
        return s.outputStart + Double(p - s.inputStart) / s.rate
    }

    /// Output position of the end of the input pushed so far.
    private var outputEnd: Double { outputPosition(ofInput: pushed) }

    /// Where the frame at output position `q` reads the input, and the rate that stretches
    /// its group delays (the map's rate there; 1 for held frames).
    ///
    /// Below 0.25x, frames near a sustained onset or offset (while the map is within
    /// `holdDistance` of it) read the input `holdDistance` before it if they lie before its
    /// mapped time, and `holdDistance` after it if they lie after: their windows never straddle
    /// it, so an attack or a stop becomes a crossfade of one window's width at its mapped time,
    /// instead of a swell (or fade) of 2σ / rate as frames slide slowly across it. When speeding up, a window spans
    /// more output time than the attack: frames before any onset's mapped time read the input
    /// before it (no pre-echo), frames after it read on as usual.
    ///
    /// A frame after an attack's mapped time (while the map is within `holdDistance` of it) is
    /// silent before that time (`silentBefore`, reached over `attackFade`): a held frame's window
    /// would otherwise let the attack swell in over 2σ (its −20 dB point came 6 ms early at
    /// 0.125x), and when speeding up, each later frame would place the attack its window still
    /// holds earlier than the last (4.5 ms early at 4x).
    private func place(_ q: Int) -> (position: Int, rate: Double, silentBefore: Int?) {
        let (p, rate) = inputPosition(ofOutput: q)
        if let anchor = anchors.first, anchor.output == q { return (anchor.input, rate, nil) }
        guard let onset = nearbyOnset(p, rate: rate) else { return (p, rate, nil) }
        let switchPoint = switchPoint(onset.position)
        if q < switchPoint { return (onset.position - holdDistance, 1, nil) }
        let gate = onset.isOffset ? nil : switchPoint
        return rate < 1 ? (onset.position + holdDistance, 1, gate) : (p, rate, gate)
    }

    /// The onset frames at input position `p` must keep clear of at `rate`, if any.
    private func nearbyOnset(_ p: Int, rate: Double) -> OnsetDetector.Onset? {
        guard Self.holdsOnsets(at: rate) else { return nil }
        let found = onsets.onsets
        // Below 1x sustained onsets and offsets; above it, every onset.
        func ignored(_ o: OnsetDetector.Onset) -> Bool { rate < 1 ? !o.sustained : o.isOffset }
        while onsetIndex < found.count && (found[onsetIndex].position + holdDistance <= p || ignored(found[onsetIndex])) {
            onsetIndex += 1
        }
        guard onsetIndex < found.count, p > found[onsetIndex].position - holdDistance else { return nil }
        return found[onsetIndex]
    }

    /// The output position where frames switch from before an onset to after it (a frame is
    /// placed exactly there, so the switch does not move with the frame grid).
    private func switchPoint(_ onset: Int) -> Int {
        Int(outputPosition(ofInput: onset).rounded())
    }

    /// The output position of the frame after the one at `q`: one hop on, or the next
    /// onset's switch point or the anchor when that comes first.
    private func nextFrame(after q: Int) -> Int {
        var next = q + hop(at: inputPosition(ofOutput: q).1)
        let (p, rate) = inputPosition(ofOutput: next)
        if let onset = nearbyOnset(p, rate: rate) {
            let s = switchPoint(onset.position)
            if s > q && s < next { next = s }
        }
        if let anchor = anchors.first, anchor.output > q && anchor.output < next { next = anchor.output }
        return next
    }

    func push(_ buffer: AudioBuffer, into output: inout PlanarFIFO) {
        for c in 0..<channelCount { input[c].append(contentsOf: buffer.channels[c]) }
        pushed += buffer.frameCount
        onsets.consume(buffer, sample: summedSample)
        advance(into: &output)
    }

    func finish(into output: inout PlanarFIFO) {
        ended = true
        onsets.finish(sample: summedSample)
        advance(into: &output)
    }

    /// Analyses and synthesises every frame the input allows, then delivers what is final.
    private func advance(into output: inout PlanarFIFO) {
        let half = window.length / 2
        let lastNeeded = Int(outputEnd.rounded(.up)) + 1
        while true {
            let q = nextOutputPosition
            if ended && q - half > lastNeeded { break }
            let (p, frameRate, silentBefore) = place(q)
            if !ended && p + half + Self.probeHop > pushed { break }
            let frame = spare.popLast() ?? SpectrumFrame(binCount: window.binCount, channelCount: channelCount)
            frame.inputPosition = p
            frame.outputPosition = q
            frame.rate = frameRate
            frame.silentBefore = silentBefore
            analyse(frame)
            nextOutputPosition = nextFrame(after: q)
            if let current {
                estimateDeviation(current, before: previous, after: frame)
                integrator.integrate(current, after: previous)
                if let anchor = anchors.first, anchor.output == current.outputPosition {
                    switch anchor.phases {
                    case .given(let phases):
                        if let phases = phases() {
                            precondition(phases.count == window.binCount, "an anchored frame's phases are one per bin")
                            current.synthesisPhase.update(from: phases, count: window.binCount)
                        }
                    case .observed(let tell):
                        tell(Array(UnsafeBufferPointer(start: current.synthesisPhase, count: window.binCount)))
                    }
                    anchors.removeFirst()
                }
                synthesise(current)
                if let previous { spare.append(previous) }
                previous = current
            }
            current = frame
            discardInput(before: p - half)
        }
        // Output before the window of the frame waiting for synthesis is complete.
        let complete = ended ? lastNeeded : (current?.outputPosition ?? nextOutputPosition) - half
        deliver(upTo: complete, into: &output)
    }

    private func analyse(_ frame: SpectrumFrame) {
        analyser.analyse(frame, input: input, base: inputBase, end: pushed)
    }

    /// Instantaneous frequency of `frame`'s bins, less each bin's centre: the mean of the phase
    /// advances to its neighbours in time (centred; one side where the other is missing or
    /// more than two hops away). A frame that repeats its predecessor's input keeps its
    /// estimate; one with no near neighbour (the first frame held after an onset) reads it
    /// against a second analysis a few frames later.
    private func estimateDeviation(_ frame: SpectrumFrame, before: SpectrumFrame?, after: SpectrumFrame) {
        let bins = window.binCount
        let farthest = 2 * window.baseHop
        func advance(from a: SpectrumFrame?, to b: SpectrumFrame?) -> Int? {
            guard let a, let b else { return nil }
            let dp = b.inputPosition - a.inputPosition
            return dp > 0 && dp <= farthest ? dp : nil
        }
        let backwardHop = advance(from: before, to: frame), forwardHop = advance(from: frame, to: after)
        if backwardHop == nil && forwardHop == nil {
            if let before, before.inputPosition == frame.inputPosition {
                frame.deviation.update(from: before.deviation, count: bins)
            } else {
                deviationFromProbe(frame)
            }
            return
        }
        let backward = backwardHop.map { advanceDeviation(of: frame, from: before!, hop: $0) }
        let forward = forwardHop.map { advanceDeviation(of: after, from: frame, hop: $0) }
        let result = frame.deviation
        switch (backward, forward) {
        case let (b?, f?): for k in 0..<bins { result[k] = 0.5 * (b[k] + f[k]) }
        case let (b?, nil): result.update(from: b, count: bins)
        case let (nil, f?): result.update(from: f, count: bins)
        case (nil, nil): break
        }
    }

    /// `frame`'s phase advance from `before`, `hop` input frames earlier, less each bin's
    /// centre, per input frame (`SpectrumFrame.advanceDeviation`): measured once, when `before`
    /// reads it forward, and kept for when `frame` reads it backward.
    private func advanceDeviation(of frame: SpectrumFrame, from before: SpectrumFrame, hop: Int) -> UnsafeMutablePointer<Float> {
        let result = frame.advanceDeviation, m = window.fftSize
        guard frame.advanceDeviationFrom != before.inputPosition else { return result }
        let (a, b) = (before.phase, frame.phase)
        for k in 0..<window.binCount {
            result[k] = SpectrumAnalyser.deviation(bin: k, from: a[k], to: b[k], over: hop, fftSize: m)
        }
        frame.advanceDeviationFrom = before.inputPosition
        return result
    }

    /// The deviation measured against a second analysis `probeHop` frames later.
    private func deviationFromProbe(_ frame: SpectrumFrame) {
        let probe = spare.popLast() ?? SpectrumFrame(binCount: window.binCount, channelCount: channelCount)
        defer { spare.append(probe) }
        probe.inputPosition = frame.inputPosition + Self.probeHop
        analyse(probe)
        analyser.measureDeviation(of: frame, against: probe)
    }

    /// Each channel's spectrum turned to the frame's synthesis phase (keeping its offset to the
    /// reference), transformed back, windowed and added at the frame's output position.
    private func synthesise(_ frame: SpectrumFrame) {
        let n = window.length, half = n / 2, m = window.fftSize, bins = window.binCount
        let first = frame.outputPosition - half
        let needed = first + n - outputBase
        if normaliser.count < needed {
            let extra = needed - normaliser.count
            normaliser.append(contentsOf: repeatElement(0, count: extra))
            for c in 0..<channelCount { accumulator[c].append(contentsOf: repeatElement(0, count: extra)) }
        }
        let offset = first - outputBase
        let scale = 1 / Float(m)
        // Samples of a frame held after an attack: silent, then fading in, up to its gate.
        let gate = frame.silentBefore.map { min(max($0 - first, 0), n) } ?? 0
        let silent = max(0, gate - attackFade.count)
        // Samples silent ..< gate rise along the end of the fade (all of it, once there is room).
        let fadeOffset = attackFade.count - (gate - silent) - silent
        // Rotation of each bin from the reference's analysis phase to its synthesis phase:
        // cosines, then sines.
        let (cosines, sines) = (rotationScratch, rotationScratch + bins)
        let (synthesisPhase, analysisPhase) = (frame.synthesisPhase, frame.phase)
        for k in 0..<bins {
            (sines[k], cosines[k]) = fastSinCos(synthesisPhase[k] - analysisPhase[k])
        }
        for c in 0..<channelCount {
            let x = frame.spectrum(c), y = fft.spectrum
            for k in 0..<bins {
                let cs = cosines[k], sn = sines[k]
                let re = x[2 * k], im = x[2 * k + 1]
                y[2 * k] = re * cs - im * sn
                y[2 * k + 1] = re * sn + im * cs
            }
            fft.inverse()
            let time = fft.time
            accumulator[c].withUnsafeMutableBufferPointer { acc in
                window.values.withUnsafeBufferPointer { g in
                    // Sample i of the window is the transform's sample i − half, wrapped: those
                    // before the middle come from its end. One loop each side (and one for an
                    // attack's fade), over pointers offset once, so that the loops vectorise.
                    let (target, g) = (acc.baseAddress! + offset, g.baseAddress!)
                    let wrapped = time + (m - half), centred = time - half
                    for i in silent..<gate {
                        target[i] += (i < half ? wrapped[i] : centred[i]) * scale * g[i] * attackFade[fadeOffset + i]
                    }
                    let audible = max(silent, gate), middle = max(audible, half)
                    for i in audible..<middle { target[i] += wrapped[i] * scale * g[i] }
                    for i in middle..<n { target[i] += centred[i] * scale * g[i] }
                }
            }
        }
        normaliser.withUnsafeMutableBufferPointer { w in
            window.squares.withUnsafeBufferPointer { g2 in
                let (target, g2) = (w.baseAddress! + offset, g2.baseAddress!)
                for i in 0..<n { target[i] += g2[i] }
            }
        }
    }

    /// Appends output frames `max(0, outputBase) ..< end` to `output`, normalised, and forgets them.
    private func deliver(upTo end: Int, into output: inout PlanarFIFO) {
        let from = max(0, outputBase)
        let count = min(end, outputBase + normaliser.count) - from
        guard count > 0 else { return }
        let skip = from - outputBase
        var planar = [[Float]]()
        planar.reserveCapacity(channelCount)
        for c in 0..<channelCount {
            planar.append((0..<count).map { i in
                let w = normaliser[skip + i]
                return w > 1e-9 ? accumulator[c][skip + i] / w : 0
            })
            accumulator[c].removeFirst(skip + count)
        }
        normaliser.removeFirst(skip + count)
        outputBase = from + count
        output.append(AudioBuffer(planar: planar))
    }

    /// The channels' sum at absolute input frame `i` (silence outside the input held).
    private func summedSample(_ i: Int) -> Float {
        guard i >= inputBase && i < pushed else { return 0 }
        var s: Float = 0
        for c in 0..<channelCount { s += input[c][i - inputBase] }
        return s
    }

    /// Forgets input before `position` once enough of it has piled up.
    private func discardInput(before position: Int) {
        let k = min(position, pushed) - inputBase
        guard k > 1 << 16 else { return }
        for c in 0..<channelCount { input[c].removeFirst(k) }
        inputBase += k
    }
}
