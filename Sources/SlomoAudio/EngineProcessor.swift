import SlomoCore

/// What the four processors share: a library engine behind an `ExactStream` (latency
/// compensation and exact lengths), with every rate checked by the algorithm. Each subclass
/// chooses its engine and adds what is particular to it.
public class EngineProcessor: TimePitchProcessor {
    public let algorithm: TimePitchAlgorithm
    public let sampleRate: Int
    public let channelCount: Int
    let stream: ExactStream

    /// Checks the format and rate, then builds the engine for the validated rate.
    init(_ algorithm: TimePitchAlgorithm, rate: Double, sampleRate: Int, channelCount: Int, compensatesLatency: Bool,
         engine makeEngine: (Double) throws -> any StretchEngine) throws {
        try checkFormat(sampleRate: sampleRate, channelCount: channelCount)
        let validated = try algorithm.validatedRate(rate)
        self.algorithm = algorithm
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        stream = ExactStream(engine: try makeEngine(validated), rate: validated, compensates: compensatesLatency)
    }

    public var rate: Double { stream.rate }
    public func setRate(_ rate: Double) throws { stream.setRate(try algorithm.validatedRate(rate)) }
    public var latency: Int { stream.engine.startDelay }
    public var compensatesLatency: Bool { stream.compensates }

    public func process(_ input: AudioBuffer) throws -> AudioBuffer {
        try checkChannels(input, channelCount)
        return stream.process(input)
    }

    /// `process(_:)` appending the output to `output` (the renderer's path, one copy less).
    func process(_ input: AudioBuffer, into output: inout PlanarFIFO) throws {
        try checkChannels(input, channelCount)
        stream.process(input, into: &output)
    }

    public func finish() -> AudioBuffer { stream.finish() }

    /// Forgets everything and starts again at `rate`, as a new processor of that rate would
    /// (the renderer reuses processors, and the memory they hold, from segment to segment).
    func restart(at rate: Double) throws { stream.restart(at: try algorithm.validatedRate(rate)) }
    public func reset() { stream.reset() }

    public func stretch(_ input: AudioBuffer) throws -> AudioBuffer {
        try checkChannels(input, channelCount)
        return stream.stretchWhole(input)
    }

    /// Measures the engine itself at rate 1 (tests only).
    func disableBypass() { stream.bypassEnabled = false }
}
