import SlomoCore

/// What the four processors share: a library engine behind an `ExactStream` (latency
/// compensation and exact lengths), with every rate checked by the algorithm. Each subclass
/// chooses its engine and adds what is particular to it.
///
/// With a pitch shift (`pitchRatio` ≠ 1) the engine stretches `pitchRatio` times more (it runs
/// at `rate / pitchRatio`, keeping pitch) and a second stream, libsamplerate's, plays its
/// output `pitchRatio` times faster: every frequency moves by the ratio and the length is the
/// unshifted one — the resampled stretch an export's `--pitch` does for a whole track, here for
/// one section (`:pitch=`).
public class EngineProcessor: TimePitchProcessor {
    public let algorithm: TimePitchAlgorithm
    public let sampleRate: Int
    public let channelCount: Int
    /// The factor every frequency is multiplied by (1: none).
    public let pitchRatio: Double
    let stream: ExactStream
    /// The resampler behind the engine when the pitch is shifted.
    private let pitchStage: ExactStream?

    /// Checks the format and rate, then builds the engine for the validated rate (the rate
    /// divided by `pitch`, the frequency ratio, when there is one).
    init(_ algorithm: TimePitchAlgorithm, rate: Double, sampleRate: Int, channelCount: Int, compensatesLatency: Bool,
         pitch: Double = 1, engine makeEngine: (Double) throws -> any StretchEngine) throws {
        try checkFormat(sampleRate: sampleRate, channelCount: channelCount)
        guard pitch == 1 || algorithm != .varispeed else {
            throw AudioError(.invalidRate, "varispeed's pitch follows its rate, so it cannot be shifted on its own")
        }
        let validated = try algorithm.validatedRate(rate / pitch)
        self.algorithm = algorithm
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        pitchRatio = pitch
        stream = ExactStream(engine: try makeEngine(validated), rate: validated, compensates: compensatesLatency)
        pitchStage = pitch == 1 ? nil
            : ExactStream(engine: try SampleRateEngine(channelCount: channelCount, rate: pitch, quality: .fastest), rate: pitch,
                          compensates: true)
    }

    public var rate: Double { stream.rate * pitchRatio }
    public func setRate(_ rate: Double) throws { stream.setRate(try algorithm.validatedRate(rate / pitchRatio)) }
    public var latency: Int { Int((Double(stream.engine.startDelay) / pitchRatio).rounded()) }
    public var compensatesLatency: Bool { stream.compensates }

    public func process(_ input: AudioBuffer) throws -> AudioBuffer {
        try checkChannels(input, channelCount)
        let stretched = stream.process(input)
        return pitchStage?.process(stretched) ?? stretched
    }

    /// `process(_:)` appending the output to `output` (the renderer's path, one copy less).
    func process(_ input: AudioBuffer, into output: inout PlanarFIFO) throws {
        try checkChannels(input, channelCount)
        guard let pitchStage else { return stream.process(input, into: &output) }
        pitchStage.process(stream.process(input), into: &output)
    }

    public func finish() -> AudioBuffer {
        let stretched = stream.finish()
        guard let pitchStage else { return stretched }
        var output = pitchStage.process(stretched)
        output.append(pitchStage.finish())
        return output
    }

    /// Forgets everything and starts again at `rate`, as a new processor of that rate would
    /// (the renderer reuses processors, and the memory they hold, from segment to segment).
    func restart(at rate: Double) throws {
        stream.restart(at: try algorithm.validatedRate(rate / pitchRatio))
        pitchStage?.restart(at: pitchRatio)
    }

    public func reset() {
        stream.reset()
        pitchStage?.reset()
    }

    public func stretch(_ input: AudioBuffer) throws -> AudioBuffer {
        try checkChannels(input, channelCount)
        let stretched = stream.stretchWhole(input)
        return pitchStage?.stretchWhole(stretched) ?? stretched
    }

    /// Measures the engine itself at rate 1 (tests only).
    func disableBypass() { stream.bypassEnabled = false }
}
