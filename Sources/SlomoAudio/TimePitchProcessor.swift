import SlomoCore
/// A time-pitch processor: changes the speed of audio by `rate` (0.25 = four times slower,
/// 2 = twice as fast), all channels together.
///
/// **Streaming**: `process(_:)` pushes input and returns whatever aligned output is ready,
/// `finish()` flushes and returns the rest. With `compensatesLatency` (the default) the
/// engine's start delay is removed, so output frame `k` corresponds to input time `k·rate`,
/// and the total output is exactly `round(Σ nᵢ / rateᵢ)` frames over all pushes `nᵢ` at
/// `rateᵢ` — for a constant rate, `round(N / rate)`. The rate may change between pushes (ramps).
///
/// At a rate of exactly 1 from the start, the input is passed through unchanged (bit-exact)
/// until the rate first changes; the engine keeps running behind it so the change is seamless.
///
/// **Offline**: `stretch(_:)` renders a whole buffer at the current rate to exactly
/// `round(N / rate)` frames (the spectral processor's Rubber Band engine then uses its
/// offline mode, which studies the whole input first).
///
/// Processors own C state, are not `Sendable`, and must be used from one task at a time.
public protocol TimePitchProcessor: AnyObject {
    /// Which algorithm this processor implements.
    var algorithm: TimePitchAlgorithm { get }
    /// Sample rate of input and output, in Hz.
    var sampleRate: Int { get }
    /// Number of channels of input and output.
    var channelCount: Int { get }
    /// The rate in effect (for `lowLatency`, the snapped rate).
    var rate: Double { get }
    /// Changes the rate for the input pushed from now on. Throws for rates the algorithm
    /// does not accept.
    func setRate(_ rate: Double) throws
    /// The engine's start delay in output frames: how much later than ideal its raw output
    /// starts. Removed from the output when `compensatesLatency` is true.
    var latency: Int { get }
    /// Whether the start delay is removed and the total length made exact.
    var compensatesLatency: Bool { get }
    /// Pushes input frames; returns the output frames that are ready (possibly none).
    func process(_ input: AudioBuffer) throws -> AudioBuffer
    /// Ends the stream: returns the remaining output. With `compensatesLatency`, the total
    /// output is then exactly the expected length. The processor must be `reset()` before
    /// it is used again.
    func finish() -> AudioBuffer
    /// Forgets all input and output, keeps the rate.
    func reset()
    /// Offline: stretches a whole buffer at the current rate to exactly `round(N / rate)`
    /// frames. Resets the processor first and leaves it reset.
    func stretch(_ input: AudioBuffer) throws -> AudioBuffer
}

extension TimePitchAlgorithm {
    /// A processor of this algorithm (`spectralEngine` chooses the engine of `.spectral`).
    /// Throws for rates the algorithm does not accept.
    /// `pitch` moves every frequency by that many semitones, the length kept (not varispeed's,
    /// which follows its rate: an error).
    public func makeProcessor(rate: Double, sampleRate: Int, channelCount: Int,
                              compensatesLatency: Bool = true,
                              spectralEngine: SpectralEngine = .defaultEngine, pitch: Double = 0) throws -> any TimePitchProcessor {
        try makeEngineProcessor(rate: rate, sampleRate: sampleRate, channelCount: channelCount,
                                compensatesLatency: compensatesLatency, spectralEngine: spectralEngine, pitch: pitch)
    }

    /// `makeProcessor` as the class all four share (the renderer uses its internal API).
    func makeEngineProcessor(rate: Double, sampleRate: Int, channelCount: Int,
                             compensatesLatency: Bool = true,
                             spectralEngine: SpectralEngine = .defaultEngine, pitch: Double = 0) throws -> EngineProcessor {
        switch self {
        case .spectral:
            return try SpectralProcessor(rate: rate, sampleRate: sampleRate, channelCount: channelCount,
                                         compensatesLatency: compensatesLatency, engine: spectralEngine, pitch: pitch)
        case .timeDomain:
            return try TimeDomainProcessor(rate: rate, sampleRate: sampleRate, channelCount: channelCount,
                                           compensatesLatency: compensatesLatency, pitch: pitch)
        case .varispeed:
            guard pitch == 0 else {
                throw AudioError(.invalidRate, "varispeed's pitch follows its rate, so it cannot be shifted on its own")
            }
            return try VarispeedProcessor(rate: rate, sampleRate: sampleRate, channelCount: channelCount,
                                          compensatesLatency: compensatesLatency)
        case .lowLatency:
            return try LowLatencyProcessor(rate: rate, sampleRate: sampleRate, channelCount: channelCount,
                                           compensatesLatency: compensatesLatency, pitch: pitch)
        }
    }

    /// Offline convenience: `input` stretched by `rate` to exactly `round(N / rate)` frames.
    public func stretch(_ input: AudioBuffer, rate: Double, sampleRate: Int,
                        spectralEngine: SpectralEngine = .defaultEngine) throws -> AudioBuffer {
        try makeProcessor(rate: rate, sampleRate: sampleRate, channelCount: input.channelCount,
                          spectralEngine: spectralEngine).stretch(input)
    }
}

/// Checks a buffer's channel count against a processor's.
func checkChannels(_ input: AudioBuffer, _ expected: Int) throws {
    guard input.channelCount == expected else {
        throw AudioError(.formatMismatch,
                         "buffer has \(input.channelCount) channels, the processor was made for \(expected)")
    }
}

/// Checks the construction parameters every processor shares.
func checkFormat(sampleRate: Int, channelCount: Int) throws {
    guard sampleRate >= 1000, sampleRate <= 768_000 else {
        throw AudioError(.formatMismatch, "sample rate \(sampleRate) Hz is not supported (1000–768000 Hz)")
    }
    guard channelCount >= 1, channelCount <= 64 else {
        throw AudioError(.formatMismatch, "\(channelCount) channels is not supported (1–64)")
    }
}
