import SlomoCore
import Foundation

/// `TimePitchAlgorithm.lowLatency`: slomo's own fixed-grain splicer.
///
/// Output is made of grains of `grainFrames` (20 ms) copied from the input at 1x; each grain is
/// placed so that its midpoint plays the source instant the rate maps there, so no sound is
/// heard more than half a grain (10 ms at 0.5x, 5 ms at 2x) from its mapped time. Each grain
/// starts with a `crossfadeFrames` (5 ms) raised-cosine crossfade from the previous grain's
/// continuation. The splice point is moved back by up to one search window (12 ms, never
/// forward) to where the audio just before it best matches the audio before the continuation,
/// which keeps steady tones in phase across splices. Onsets are not moved: when speeding up,
/// a grain starts just before a transient that would be skipped; when slowing down, a grain
/// holding an onset plays it at its mapped time.
///
/// The first grain starts at the first input sample, so the first output sample is the first
/// input sample and there is nothing to compensate (`latency` = 0); when slowing down
/// (rate ≤ 1) every output frame depends only on input already pushed. Rates snap to 0.5, 2/3,
/// 0.8, 1, 1.25, 1.5, 2; at rate 1 the input is copied unchanged. Rate changes take effect at
/// the next grain.
public final class LowLatencyProcessor: EngineProcessor {
    public init(rate: Double, sampleRate: Int, channelCount: Int, compensatesLatency: Bool = true, pitch: Double = 0) throws {
        try super.init(.lowLatency, rate: rate, sampleRate: sampleRate, channelCount: channelCount,
                       compensatesLatency: compensatesLatency, pitch: PitchShift.ratio(semitones: pitch)) { _ in
            SplicerEngine(sampleRate: sampleRate, channelCount: channelCount)
        }
    }

    private var splicer: SplicerEngine { stream.engine as! SplicerEngine }
    /// Sets a rate between 0.5 and 2 without snapping (used for ramps).
    func setUnsnappedRate(_ rate: Double) { stream.setRate(min(max(rate / pitchRatio, 0.5), 2)) }
    /// Length of a grain in frames (20 ms).
    public var grainFrameCount: Int { splicer.grain }
    /// Length of the crossfade at each splice in frames (5 ms).
    public var crossfadeFrameCount: Int { splicer.crossfade }
}

final class SplicerEngine: StretchEngine {
    let channelCount: Int
    let startDelay = 0
    let grain: Int
    let crossfade: Int
    let window: Int
    /// The window whose level marks a transient (1 ms).
    let transientWindow: Int
    private var rate: Double = 1
    private var fade: [Float]

    // Input kept from absolute frame `base` on, per channel and mixed to mono for matching.
    private var input: [[Float]]
    private var mono: [Float] = []
    private var base = 0
    private var inputEnd: Int { base + mono.count }

    // The grain being written: its absolute source start, the previous grain's continuation
    // (source frame that would have followed it), how far into the grain output has got.
    private var grainIndex = 0
    private var mappedSource: Double = 0    // the source instant the next grain's first output frame is mapped to
    private var grainSource = 0
    private var continuation = -1           // −1: no crossfade for this grain
    private var offsetInGrain = 0
    private var grainStarted = false

    init(sampleRate: Int, channelCount: Int) {
        self.channelCount = channelCount
        grain = max(16, Int((0.020 * Double(sampleRate)).rounded()))
        crossfade = max(4, Int((0.005 * Double(sampleRate)).rounded()))
        window = max(8, Int((0.012 * Double(sampleRate)).rounded()))
        transientWindow = max(8, crossfade / 5)
        input = Array(repeating: [], count: channelCount)
        let xf = crossfade
        fade = (0..<xf).map { i in
            let x = (Double(i) + 0.5) / Double(xf)
            return Float(0.5 - 0.5 * cos(Double.pi * x))
        }
    }

    func setRate(_ rate: Double) { self.rate = rate }

    func reset() {
        for c in 0..<channelCount { input[c].removeAll(keepingCapacity: true) }
        mono.removeAll(keepingCapacity: true)
        base = 0
        grainIndex = 0
        mappedSource = 0
        grainSource = 0
        continuation = -1
        offsetInGrain = 0
        grainStarted = false
    }

    func push(_ buffer: AudioBuffer, into output: inout PlanarFIFO) {
        let n = buffer.frameCount
        guard n > 0 else { return }
        for c in 0..<channelCount { input[c].append(contentsOf: buffer.channels[c]) }
        let start = mono.count
        mono.append(contentsOf: repeatElement(0, count: n))
        mono.withUnsafeMutableBufferPointer { m in
            for c in 0..<channelCount {
                buffer.channels[c].withUnsafeBufferPointer { src in
                    for f in 0..<n { m[start + f] += src[f] }
                }
            }
        }
        render(final: false, into: &output)
    }

    func finish(into output: inout PlanarFIFO) {
        render(final: true, into: &output)
    }

    /// Where the next grain should start in the source: half a grain of 1x playback before the
    /// source its midpoint is mapped to, so the grain is centred on its mapped time; the first
    /// grain at the first input sample.
    private var nominalStart: Int {
        grainIndex == 0 ? 0 : max(0, Int((mappedSource + Double(grain) / 2 * (rate - 1)).rounded()))
    }

    /// Chooses where grain `grainIndex` starts in the source.
    private func startGrain() {
        let nominal = nominalStart
        if grainIndex == 0 {
            grainSource = nominal
            continuation = -1
        } else {
            let cont = grainSource + grain
            if rate == 1 && cont == nominal {
                continuation = -1        // seamless: the previous grain simply continues
                grainSource = cont
            } else {
                continuation = cont
                grainSource = transientStart(skippedFrom: cont, to: nominal) ?? onsetStart(nominal: nominal)
                    ?? bestMatch(nominal: nominal, reference: cont)
            }
        }
        mappedSource += Double(grain) * rate
        offsetInGrain = 0
        grainStarted = true
    }

    /// When speeding up, the source between the previous grain's end and the next grain's
    /// nominal start is skipped. If a transient (a 1 ms window 15 dB above the median level
    /// around it) lies there, the next grain starts just before it instead, with the transient
    /// past the crossfade so it plays at full level, so clicks and onsets are never dropped or
    /// faded; the grain is then at most one grain early.
    private func transientStart(skippedFrom reference: Int, to nominal: Int) -> Int? {
        guard nominal > reference, let peak = transient(from: reference - grain, to: nominal, after: reference) else { return nil }
        return min(max(reference, peak - 2 * transientWindow - crossfade), nominal)
    }

    /// When slowing down, a grain near an onset is not moved by the search, which could carry
    /// the onset into the next grain and up to a search window late. An onset whose mapped
    /// time falls inside this grain is placed exactly there; any other nearby onset leaves the
    /// grain at its nominal start, within half a grain of its mapped time.
    private func onsetStart(nominal: Int) -> Int? {
        guard rate < 1, let onset = transient(from: nominal - window, to: nominal + grain, after: nominal - window) else {
            return nil
        }
        let offset = (Double(onset) - mappedSource) / rate // output frames after this grain's first
        guard offset >= 0, offset < Double(grain) else { return max(nominal, base) }
        return max(onset - Int(offset.rounded()), base)
    }

    /// The start of the loudest 1 ms window at or after `after` in the source range
    /// [`from`, `to`] (clipped to the input held) when it is 15 dB above the range's median
    /// level: an onset or a click.
    private func transient(from: Int, to: Int, after: Int) -> Int? {
        let win = transientWindow
        let from = max(base, from), to = min(to, inputEnd - win)
        guard to - from >= 4 * win else { return nil }
        return mono.withUnsafeBufferPointer { m -> Int? in
            var energies: [(start: Int, e: Float)] = []
            var s = from
            while s + win <= to + win && s <= to {
                var e: Float = 0
                for i in 0..<win { let v = m[s - base + i]; e += v * v }
                energies.append((s, e))
                s += win / 2
            }
            let median = energies.map(\.e).sorted()[energies.count / 2]
            guard let peak = energies.filter({ $0.start >= after }).max(by: { $0.e < $1.e }),
                  peak.e > 31.6 * median + 1e-12 else { return nil }
            return peak.start
        }
    }

    /// The start in `[nominal − window, nominal]` whose preceding `crossfade` frames best
    /// match (normalised cross-correlation) those preceding `reference`.
    private func bestMatch(nominal: Int, reference: Int) -> Int {
        let x = crossfade
        let lo = max(nominal - window, base + x, 0), hi = nominal
        guard reference - x >= base, lo <= hi, hi <= inputEnd else { return max(nominal, base) }
        return mono.withUnsafeBufferPointer { m -> Int in
            let ref = m.baseAddress! + (reference - x - base)
            func score(_ a: Int) -> Double {
                let cand = m.baseAddress! + (a - x - base)
                var dot: Float = 0, energy: Float = 0
                for i in 0..<x {
                    dot += ref[i] * cand[i]
                    energy += cand[i] * cand[i]
                }
                return Double(dot) / (Double(energy).squareRoot() + 1e-12)
            }
            var best = hi, bestScore = score(hi)
            var a = hi - 4
            while a >= lo {
                let s = score(a)
                if s > bestScore { best = a; bestScore = s }
                a -= 4
            }
            let coarse = best
            for b in max(lo, coarse - 3)...min(hi, coarse + 3) where b != coarse {
                let s = score(b)
                if s > bestScore { best = b; bestScore = s }
            }
            return best
        }
    }

    /// Writes output frames while the input they need is there (or, when `final`, reading
    /// silence past the end of the input).
    private func render(final: Bool, into output: inout PlanarFIFO) {
        var produced = [[Float]](repeating: [], count: channelCount)
        outer: while true {
            if !grainStarted {
                // The match needs the frames before the nominal start.
                let nominal = nominalStart
                if !final && nominal > inputEnd { break }
                if final && grainIndex > 0 && nominal >= inputEnd { break }
                startGrain()
            }
            // How many frames of this grain can be written now.
            var avail = grain - offsetInGrain
            if !final {
                avail = min(avail, inputEnd - (grainSource + offsetInGrain))
                if continuation >= 0 && offsetInGrain < crossfade {
                    avail = min(avail, inputEnd - (continuation + offsetInGrain))
                }
            }
            if avail <= 0 {
                if final { break outer }
                break
            }
            for c in 0..<channelCount {
                input[c].withUnsafeBufferPointer { src in
                    func at(_ i: Int) -> Float {
                        let k = i - base
                        return k >= 0 && k < src.count ? src[k] : 0
                    }
                    var chunk = [Float](repeating: 0, count: avail)
                    for i in 0..<avail {
                        let o = offsetInGrain + i
                        var v = at(grainSource + o)
                        if continuation >= 0 && o < crossfade {
                            let w = fade[o]
                            v = at(continuation + o) * (1 - w) + v * w
                        }
                        chunk[i] = v
                    }
                    produced[c].append(contentsOf: chunk)
                }
            }
            offsetInGrain += avail
            if offsetInGrain == grain {
                grainIndex += 1
                grainStarted = false
            } else if !final {
                break
            }
        }
        if !produced[0].isEmpty {
            output.append(AudioBuffer(planar: produced))
        }
        trimInput()
    }

    /// Drops input no future grain can read.
    private func trimInput() {
        var keep = nominalStart - window - crossfade - 8
        if grainStarted { keep = min(keep, grainSource, continuation >= 0 ? continuation : keep) }
        keep = min(keep, grainSource + grain - crossfade - 8)
        let drop = keep - base
        if drop > 32768 {
            for c in 0..<channelCount { input[c].removeFirst(drop) }
            mono.removeFirst(drop)
            base += drop
        }
    }
}
