import SlomoCore
import CSoundTouch

/// `TimePitchAlgorithm.timeDomain`: SoundTouch's WSOLA tempo change through its C API, with
/// SoundTouch's default (music) settings, channels interleaved together.
///
/// SoundTouch's output is exact only after `flush()` (pitfall 20), so the stream flushes only
/// in `finish()`; `reset()` uses `clear()`.
public final class TimeDomainProcessor: EngineProcessor {
    public init(rate: Double, sampleRate: Int, channelCount: Int, compensatesLatency: Bool = true, pitch: Double = 0) throws {
        try super.init(.timeDomain, rate: rate, sampleRate: sampleRate, channelCount: channelCount,
                       compensatesLatency: compensatesLatency, pitch: PitchShift.ratio(semitones: pitch)) { _ in
            SoundTouchEngine(sampleRate: sampleRate, channelCount: channelCount)
        }
    }

    private var soundTouch: SoundTouchEngine { stream.engine as! SoundTouchEngine }
    /// SoundTouch's own estimate of its initial input-to-output latency, in input frames
    /// (how much input it holds before output appears), for information.
    public var bufferedLatency: Int { soundTouch.initialLatency }
    /// SoundTouch's nominal output sequence (its hop), in frames.
    public var hopFrames: Int { soundTouch.hop }
}

final class SoundTouchEngine: StretchEngine {
    let channelCount: Int
    private let handle: UnsafeMutableRawPointer
    /// Output frames to drop at the start: the start pad, less the amount by which
    /// SoundTouch's output runs early when slowing down (`Sequencing.earlyPerStretch` ×
    /// (1/tempo − 1)), plus the amount by which it runs late when speeding up (`lateWhenFaster`).
    private(set) var startDelay = 0
    private var started = false
    private var tempo = 1.0
    private let sampleRate: Int
    private let chunk = 4096
    private let interleavedIn: UnsafeMutablePointer<Float>
    private let interleavedOut: UnsafeMutablePointer<Float>

    init(sampleRate: Int, channelCount: Int) {
        let h = soundtouch_createInstance()!
        handle = h
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        interleavedIn = .allocate(capacity: chunk * channelCount)
        interleavedOut = .allocate(capacity: chunk * channelCount)
        soundtouch_setChannels(h, UInt32(channelCount))
        soundtouch_setSampleRate(h, UInt32(sampleRate))
        soundtouch_setSetting(h, Int32(SLOMO_ST_SETTING_USE_QUICKSEEK), 0)
    }

    deinit {
        soundtouch_destroyInstance(handle)
        interleavedIn.deallocate()
        interleavedOut.deallocate()
    }

    var initialLatency: Int { Int(soundtouch_getSetting(handle, Int32(SLOMO_ST_SETTING_INITIAL_LATENCY))) }

    var hop: Int { Int(soundtouch_getSetting(handle, Int32(SLOMO_ST_SETTING_NOMINAL_OUTPUT_SEQUENCE))) }

    /// SoundTouch's sequence and seek window for a tempo, in ms (0: its automatic choice), and
    /// how early its output then runs per unit of (1/tempo − 1), in seconds.
    ///
    /// Its automatic sequences (up to 90 ms when slowing) put a transient up to ~90 ms early
    /// below 0.5 and 12–43 ms early from 0.5 to 0.8 (beeps of a flash-and-beep clip in retime's
    /// output). Below 0.5, 40 ms sequences with a 15 ms seek window keep beeps within 7 ms;
    /// from 0.5 to 0.8, 45 ms with 20 ms keep them within ±5 ms with a 110 Hz tone at 37.6 dB
    /// SNR at 0.5x (docs/audio.md has the settings tried). Slowing down only repeats audio, so
    /// shorter sequences drop no transients.
    struct Sequencing: Equatable {
        let sequenceMs: Int32
        let seekWindowMs: Int32
        let earlyPerStretch: Double

        static func forTempo(_ tempo: Double) -> Sequencing {
            if tempo < 0.5 { return Sequencing(sequenceMs: 40, seekWindowMs: 15, earlyPerStretch: 0.035) }
            if tempo < 0.8 { return Sequencing(sequenceMs: 45, seekWindowMs: 20, earlyPerStretch: 0.035) }
            return Sequencing(sequenceMs: 0, seekWindowMs: 0, earlyPerStretch: 0.044)
        }
    }

    /// How late SoundTouch's output runs when speeding up, in seconds: 7.5 ms, measured on beeps
    /// at 1.25x–2x (6–9 ms, whatever the tempo), taken off at the start like the early run.
    static let lateWhenFaster = 0.0075

    func setRate(_ rate: Double) {
        tempo = rate
        soundtouch_setTempo(handle, Float(rate))
        let sequencing = Sequencing.forTempo(rate)
        soundtouch_setSetting(handle, Int32(SLOMO_ST_SETTING_SEQUENCE_MS), sequencing.sequenceMs)
        soundtouch_setSetting(handle, Int32(SLOMO_ST_SETTING_SEEKWINDOW_MS), sequencing.seekWindowMs)
    }

    /// Feeds the start pad (100 ms of silence) at the first push, so that the early start of
    /// SoundTouch's output falls into silence that is then dropped.
    private func start(into output: inout PlanarFIFO) {
        started = true
        let pad = sampleRate / 10
        let early = (tempo < 1 ? Sequencing.forTempo(tempo).earlyPerStretch * (1 / tempo - 1) : tempo > 1 ? -Self.lateWhenFaster : 0)
            * Double(sampleRate)
        startDelay = Int((Double(pad) / tempo - early).rounded())
        let zeros = AudioBuffer(channelCount: channelCount, frameCount: pad)
        feed(zeros, into: &output)
    }

    var settingsDescription: String {
        let names = ["seq", "seek", "overlap", "nomIn", "nomOut", "latency"]
        let ids = [SLOMO_ST_SETTING_SEQUENCE_MS, SLOMO_ST_SETTING_SEEKWINDOW_MS, SLOMO_ST_SETTING_OVERLAP_MS,
                   SLOMO_ST_SETTING_NOMINAL_INPUT_SEQUENCE, SLOMO_ST_SETTING_NOMINAL_OUTPUT_SEQUENCE,
                   SLOMO_ST_SETTING_INITIAL_LATENCY]
        return zip(names, ids).map { "\($0)=\(soundtouch_getSetting(handle, Int32($1)))" }.joined(separator: " ")
    }

    func reset() {
        soundtouch_clear(handle)
        started = false
        startDelay = 0
    }

    private func receive(into output: inout PlanarFIFO) {
        while true {
            let got = Int(soundtouch_receiveSamples(handle, interleavedOut, UInt32(chunk)))
            if got <= 0 { return }
            output.append(interleaved: interleavedOut, frames: got)
        }
    }

    func push(_ input: AudioBuffer, into output: inout PlanarFIFO) {
        if !started { start(into: &output) }
        feed(input, into: &output)
    }

    private func feed(_ input: AudioBuffer, into output: inout PlanarFIFO) {
        var start = 0
        while start < input.frameCount {
            let n = min(chunk, input.frameCount - start)
            input.interleave(from: start, count: n, into: interleavedIn)
            soundtouch_putSamples(handle, interleavedIn, UInt32(n))
            receive(into: &output)
            start += n
        }
    }

    func finish(into output: inout PlanarFIFO) {
        if !started { start(into: &output) }
        soundtouch_flush(handle)
        receive(into: &output)
    }
}
