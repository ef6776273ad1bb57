import SlomoCore
import CRubberBand

/// `TimePitchAlgorithm.spectral`: by default slomo's own phase vocoder with phase-gradient
/// heap integration (`PhaseGradientEngine`); on request Rubber Band's R3 engine ("finer").
///
/// Rubber Band streams in its real-time mode with the exact-length recipe (feed the preferred
/// start pad, drop the start delay, end with pad + a block of zeros marked final, drain until
/// `available()` is −1), and `stretch(_:)` uses its offline mode, studying the input in chunks
/// of at most 16384 frames. The phase-gradient engine renders offline through its streaming
/// path: it has no start delay and needs no study.
public final class SpectralProcessor: EngineProcessor {
    /// The engine behind this processor.
    public let engine: SpectralEngine

    public init(rate: Double, sampleRate: Int, channelCount: Int, compensatesLatency: Bool = true,
                engine: SpectralEngine = .defaultEngine, pitch: Double = 0) throws {
        self.engine = engine
        try super.init(.spectral, rate: rate, sampleRate: sampleRate, channelCount: channelCount,
                       compensatesLatency: compensatesLatency, pitch: PitchShift.ratio(semitones: pitch)) { validated in
            switch engine {
            case .phaseGradient:
                return PhaseGradientEngine(sampleRate: sampleRate, channelCount: channelCount, rate: validated)
            case .rubberBand:
                return try RubberBandEngine(sampleRate: sampleRate, channelCount: channelCount, rate: validated)
            }
        }
    }

    public override func stretch(_ input: AudioBuffer) throws -> AudioBuffer {
        guard engine == .rubberBand else { return try super.stretch(input) }
        try checkChannels(input, channelCount)
        reset()
        if rate == 1 && stream.bypassEnabled { return input }
        return try RubberBandEngine.offline(input, rate: rate, sampleRate: sampleRate)
    }

    /// Rubber Band's engine version for the options slomo uses (3 = R3 "finer").
    public static func engineVersion(sampleRate: Int = 48000) -> Int {
        guard let s = rubberband_new(UInt32(sampleRate), 1, RubberBandEngine.options(realTime: true), 1, 1)
        else { return 0 }
        defer { rubberband_delete(s) }
        return Int(rubberband_get_engine_version(s))
    }
}

/// Rubber Band R3 in real-time mode, wrapped for `ExactStream`.
final class RubberBandEngine: StretchEngine {
    let channelCount: Int
    let sampleRate: Int
    private var state: RubberBandState
    private(set) var startDelay = 0
    private var pad = 0
    private var rate: Double
    private let chunk = 1024
    private let inScratch: PlanarScratch
    private let outScratch: PlanarScratch
    /// Output produced while the start pad was fed (part of the start delay).
    private var early: PlanarFIFO

    static func options(realTime: Bool) -> RubberBandOptions {
        var o = Int32(RubberBandOptionEngineFiner.rawValue) | Int32(RubberBandOptionChannelsTogether.rawValue)
            | Int32(RubberBandOptionThreadingNever.rawValue)
        if realTime { o |= Int32(RubberBandOptionProcessRealTime.rawValue) }
        return RubberBandOptions(o)
    }

    init(sampleRate: Int, channelCount: Int, rate: Double) throws {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.rate = rate
        rubberband_set_default_debug_level(-1)
        guard let s = rubberband_new(UInt32(sampleRate), UInt32(channelCount),
                                     Self.options(realTime: true), 1 / rate, 1)
        else { throw AudioError(.engineFailure, "Rubber Band could not create a stretcher") }
        state = s
        guard rubberband_get_engine_version(s) == 3 else {
            rubberband_delete(s)
            throw AudioError(.engineFailure, "Rubber Band did not provide its R3 (finer) engine")
        }
        inScratch = PlanarScratch(channelCount: channelCount, capacity: chunk)
        outScratch = PlanarScratch(channelCount: channelCount, capacity: 4096)
        early = PlanarFIFO(channelCount: channelCount)
        rubberband_set_max_process_size(s, UInt32(chunk))
        start()
    }

    deinit { rubberband_delete(state) }

    /// Feeds the preferred start pad and records the start delay.
    private func start() {
        pad = Int(rubberband_get_preferred_start_pad(state))
        startDelay = Int(rubberband_get_start_delay(state))
        early = PlanarFIFO(channelCount: channelCount)
        feedZeros(pad, final: false, into: &early)
    }

    func setRate(_ rate: Double) {
        self.rate = rate
        rubberband_set_time_ratio(state, 1 / rate)
    }

    func reset() {
        rubberband_reset(state)
        rubberband_set_time_ratio(state, 1 / rate)
        start()
    }

    private func drain(into output: inout PlanarFIFO) {
        while true {
            let a = Int(rubberband_available(state))
            if a <= 0 { return }
            let n = min(a, outScratch.capacity)
            let got = Int(rubberband_retrieve(state, outScratch.pointers, UInt32(n)))
            if got <= 0 { return }
            outScratch.store(got, into: &output)
        }
    }

    private func feedZeros(_ count: Int, final: Bool, into output: inout PlanarFIFO) {
        inScratch.zero(chunk)
        var left = count
        repeat {
            let n = min(chunk, left)
            left -= n
            rubberband_process(state, inScratch.constPointers, UInt32(n), final && left == 0 ? 1 : 0)
            drain(into: &output)
        } while left > 0
    }

    private func takeEarly(into output: inout PlanarFIFO) {
        if early.count > 0 { output.append(early.pop(early.count)) }
    }

    func push(_ input: AudioBuffer, into output: inout PlanarFIFO) {
        takeEarly(into: &output)
        var start = 0
        while start < input.frameCount {
            let n = min(chunk, input.frameCount - start)
            inScratch.load(input, from: start, count: n)
            rubberband_process(state, inScratch.constPointers, UInt32(n), 0)
            drain(into: &output)
            start += n
        }
    }

    func finish(into output: inout PlanarFIFO) {
        takeEarly(into: &output)
        // Pitfall 18/19: pad, then a block of zeros carrying `final` (a final call with no
        // samples does not flush R3), then drain until available() is −1.
        feedZeros(pad, final: false, into: &output)
        feedZeros(chunk, final: true, into: &output)
        var idle = 0
        while idle < 64 {
            let a = Int(rubberband_available(state))
            if a < 0 { break }
            if a == 0 { idle += 1; continue }
            idle = 0
            drain(into: &output)
        }
    }

    /// Offline mode: study in chunks ≤ 16384 frames, then process; exactly round(N / rate) out.
    static func offline(_ input: AudioBuffer, rate: Double, sampleRate: Int) throws -> AudioBuffer {
        let cc = input.channelCount, n = input.frameCount
        let target = Int((Double(n) / rate).rounded(.toNearestOrAwayFromZero))
        guard n > 0 else { return AudioBuffer(channelCount: cc, frameCount: target) }
        rubberband_set_default_debug_level(-1)
        guard let s = rubberband_new(UInt32(sampleRate), UInt32(cc), options(realTime: false), 1 / rate, 1)
        else { throw AudioError(.engineFailure, "Rubber Band could not create a stretcher") }
        defer { rubberband_delete(s) }
        guard rubberband_get_engine_version(s) == 3 else {
            throw AudioError(.engineFailure, "Rubber Band did not provide its R3 (finer) engine")
        }
        let chunk = 16384
        rubberband_set_expected_input_duration(s, UInt32(n))
        rubberband_set_max_process_size(s, UInt32(chunk))
        let scratch = PlanarScratch(channelCount: cc, capacity: chunk)
        let outScratch = PlanarScratch(channelCount: cc, capacity: 16384)
        var start = 0
        while start < n {
            let k = min(chunk, n - start)
            scratch.load(input, from: start, count: k)
            rubberband_study(s, scratch.constPointers, UInt32(k), start + k == n ? 1 : 0)
            start += k
        }
        var fifo = PlanarFIFO(channelCount: cc)
        func drain() {
            while true {
                let a = Int(rubberband_available(s))
                if a <= 0 { return }
                let got = Int(rubberband_retrieve(s, outScratch.pointers, UInt32(min(a, outScratch.capacity))))
                if got <= 0 { return }
                outScratch.store(got, into: &fifo)
            }
        }
        // Process in small blocks and drain after each: Rubber Band's output buffer is far
        // smaller than what 16k frames become at 1/32, and input it cannot place is not
        // processed later unless process() is called again.
        let block = 512
        start = 0
        while start < n {
            let k = min(block, n - start)
            scratch.load(input, from: start, count: k)
            rubberband_process(s, scratch.constPointers, UInt32(k), start + k == n ? 1 : 0)
            drain()
            start += k
        }
        var idle = 0
        while idle < 64 && fifo.count < target {
            let a = Int(rubberband_available(s))
            if a < 0 { break }
            if a == 0 {
                idle += 1
                scratch.zero(1)
                rubberband_process(s, scratch.constPointers, 0, 1)
                continue
            }
            idle = 0
            drain()
        }
        var out = fifo.pop(min(fifo.count, target))
        out.resize(to: target)
        return out
    }
}
