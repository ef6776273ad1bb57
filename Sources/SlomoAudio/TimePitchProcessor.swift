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
    /// The rate in effect (for `lowQualityZeroLatency`, the snapped rate).
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
    public func makeProcessor(rate: Double, sampleRate: Int, channelCount: Int,
                              compensatesLatency: Bool = true,
                              spectralEngine: SpectralEngine = .defaultEngine) throws -> any TimePitchProcessor {
        try makeEngineProcessor(rate: rate, sampleRate: sampleRate, channelCount: channelCount,
                                compensatesLatency: compensatesLatency, spectralEngine: spectralEngine)
    }

    /// `makeProcessor` as the class all four share (the renderer uses its internal API).
    func makeEngineProcessor(rate: Double, sampleRate: Int, channelCount: Int,
                             compensatesLatency: Bool = true,
                             spectralEngine: SpectralEngine = .defaultEngine) throws -> EngineProcessor {
        switch self {
        case .spectral:
            return try SpectralProcessor(rate: rate, sampleRate: sampleRate, channelCount: channelCount,
                                         compensatesLatency: compensatesLatency, engine: spectralEngine)
        case .timeDomain:
            return try TimeDomainProcessor(rate: rate, sampleRate: sampleRate, channelCount: channelCount,
                                           compensatesLatency: compensatesLatency)
        case .varispeed:
            return try VarispeedProcessor(rate: rate, sampleRate: sampleRate, channelCount: channelCount,
                                          compensatesLatency: compensatesLatency)
        case .lowLatency:
            return try LowLatencyProcessor(rate: rate, sampleRate: sampleRate, channelCount: channelCount,
                                           compensatesLatency: compensatesLatency)
        }
    }

    /// Offline convenience: `input` stretched by `rate` to exactly `round(N / rate)` frames.
    public func stretch(_ input: AudioBuffer, rate: Double, sampleRate: Int,
                        spectralEngine: SpectralEngine = .defaultEngine) throws -> AudioBuffer {
        try makeProcessor(rate: rate, sampleRate: sampleRate, channelCount: input.channelCount,
                          spectralEngine: spectralEngine).stretch(input)
    }
}

/// What each library wrapper provides; `ExactStream` turns it into a `TimePitchProcessor`.
protocol StretchEngine: AnyObject {
    var channelCount: Int { get }
    /// Output frames by which the raw output lags the aligned output.
    var startDelay: Int { get }
    func setRate(_ rate: Double)
    /// Pushes input; appends produced output to `output`.
    func push(_ input: AudioBuffer, into output: inout PlanarFIFO)
    /// No more input: appends everything still inside to `output`.
    func finish(into output: inout PlanarFIFO)
    func reset()
}

/// Latency compensation and exact-length bookkeeping shared by all processors.
final class ExactStream {
    let engine: any StretchEngine
    let compensates: Bool
    private(set) var rate: Double
    /// Output frames owed for input pushed at earlier rates.
    private var owedBefore: Double = 0
    /// Input frames pushed at the current rate.
    private var inputAtRate = 0
    private(set) var delivered = 0
    private var toDiscard = 0
    /// Whether the engine's start delay has been read (engines may fix it at their first push).
    private var started = false
    private var fifo: PlanarFIFO
    /// True while the rate has been exactly 1 since the start: the input is delivered
    /// unchanged (the engine still runs, so that a later rate change continues seamlessly).
    private var bypass: Bool
    /// Aligned engine output frames still to drop because the bypass delivered them.
    private var engineBehind = 0
    /// Tests turn the bypass off to measure the engines themselves at rate 1.
    var bypassEnabled = true {
        didSet { bypass = bypass && bypassEnabled }
    }

    init(engine: any StretchEngine, rate: Double, compensates: Bool) {
        self.engine = engine
        self.rate = rate
        self.compensates = compensates
        bypass = compensates && rate == 1
        fifo = PlanarFIFO(channelCount: engine.channelCount)
        engine.setRate(rate)
    }

    private func dropBehind() {
        let k = min(engineBehind, fifo.count)
        fifo.drop(k)
        engineBehind -= k
    }

    /// Output frames the input pushed so far should produce (fractional).
    var expectedOutput: Double { owedBefore + Double(inputAtRate) / rate }

    func setRate(_ newRate: Double) {
        guard newRate != rate else { return }
        bypass = false
        owedBefore += Double(inputAtRate) / rate
        inputAtRate = 0
        rate = newRate
        engine.setRate(newRate)
    }

    private func discardStart() {
        if !started {
            started = true
            toDiscard = compensates ? engine.startDelay : 0
        }
        let k = min(toDiscard, fifo.count)
        fifo.drop(k)
        toDiscard -= k
    }

    func process(_ input: AudioBuffer) -> AudioBuffer {
        guard let ready = push(input) else { return input }
        return fifo.pop(ready)
    }

    /// `process(_:)` appending the output to `output` instead of returning it (one copy less).
    func process(_ input: AudioBuffer, into output: inout PlanarFIFO) {
        guard let ready = push(input) else { return output.append(input) }
        output.move(ready, from: &fifo)
    }

    /// Pushes `input` into the engine and counts what is delivered: the number of frames at the
    /// front of `fifo` that are ready, or nil when the bypass delivers `input` itself.
    private func push(_ input: AudioBuffer) -> Int? {
        precondition(input.channelCount == engine.channelCount, "channel count differs from the processor's")
        inputAtRate += input.frameCount
        engine.push(input, into: &fifo)
        if !started { discardStart() }
        if !compensates {
            delivered += fifo.count
            return fifo.count
        }
        discardStart()
        if bypass {
            engineBehind += input.frameCount
            dropBehind()
            delivered += input.frameCount
            return nil
        }
        dropBehind()
        let ready = min(max(0, Int(expectedOutput.rounded(.down)) - delivered), fifo.count)
        delivered += ready
        return ready
    }

    func finish() -> AudioBuffer {
        if bypass {
            delivered = Int(expectedOutput.rounded(.toNearestOrAwayFromZero))
            return AudioBuffer(channelCount: engine.channelCount)
        }
        engine.finish(into: &fifo)
        if !started { discardStart() }
        if !compensates {
            delivered += fifo.count
            return fifo.pop(fifo.count)
        }
        discardStart()
        dropBehind()
        let target = Int(expectedOutput.rounded(.toNearestOrAwayFromZero))
        var out = fifo.pop(max(0, target - delivered))
        out.resize(to: max(0, target - delivered))
        delivered = target
        fifo.removeAll()
        return out
    }

    /// `reset()` to start again at `newRate`, as a stream made at that rate would.
    func restart(at newRate: Double) {
        rate = newRate
        engine.setRate(newRate)
        reset()
    }

    func reset() {
        engine.reset()
        engine.setRate(rate)
        owedBefore = 0
        inputAtRate = 0
        delivered = 0
        toDiscard = 0
        started = false
        bypass = compensates && rate == 1 && bypassEnabled
        engineBehind = 0
        fifo.removeAll()
    }

    /// Offline rendering through the streaming path, in blocks.
    func stretchWhole(_ input: AudioBuffer, block: Int = 8192) -> AudioBuffer {
        reset()
        var out = AudioBuffer(channelCount: engine.channelCount)
        var start = 0
        while start < input.frameCount {
            let n = min(block, input.frameCount - start)
            out.append(process(input.slice(start..<(start + n))))
            start += n
        }
        out.append(finish())
        reset()
        return out
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

/// Scratch memory for handing channel blocks to C: `channelCount` contiguous planar blocks of
/// `capacity` frames, plus an array of their pointers, allocated once.
final class PlanarScratch {
    let channelCount: Int
    let capacity: Int
    let base: UnsafeMutablePointer<Float>
    let pointers: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    let constPointers: UnsafeMutablePointer<UnsafePointer<Float>?>

    init(channelCount: Int, capacity: Int) {
        self.channelCount = channelCount
        self.capacity = capacity
        base = .allocate(capacity: channelCount * capacity)
        base.initialize(repeating: 0, count: channelCount * capacity)
        pointers = .allocate(capacity: channelCount)
        constPointers = .allocate(capacity: channelCount)
        for c in 0..<channelCount {
            pointers[c] = base + c * capacity
            constPointers[c] = UnsafePointer(base + c * capacity)
        }
    }

    deinit {
        base.deallocate()
        pointers.deallocate()
        constPointers.deallocate()
    }

    func channel(_ c: Int) -> UnsafeMutablePointer<Float> { base + c * capacity }

    /// Copies frames `start ..< start + n` of `buffer` into the scratch blocks.
    func load(_ buffer: AudioBuffer, from start: Int, count n: Int) {
        for c in 0..<channelCount {
            buffer.channels[c].withUnsafeBufferPointer { src in
                channel(c).update(from: src.baseAddress! + start, count: n)
            }
        }
    }

    /// Zeros the first `n` frames of every block.
    func zero(_ n: Int) {
        for c in 0..<channelCount { channel(c).update(repeating: 0, count: n) }
    }

    /// Appends the first `n` frames of every block to `fifo`.
    func store(_ n: Int, into fifo: inout PlanarFIFO) {
        fifo.append((0..<channelCount).map { UnsafePointer(channel($0)) }, frames: n)
    }
}
