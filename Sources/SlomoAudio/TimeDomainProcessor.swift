import SlomoCore

/// `TimePitchAlgorithm.timeDomain`: slomo's WSOLA (`WSOLAEngine`), every channel spliced at the
/// same places, each onset's first copy where the map puts it.
public final class TimeDomainProcessor: EngineProcessor {
    public init(rate: Double, sampleRate: Int, channelCount: Int, compensatesLatency: Bool = true, pitch: Double = 0) throws {
        try super.init(.timeDomain, rate: rate, sampleRate: sampleRate, channelCount: channelCount,
                       compensatesLatency: compensatesLatency, pitch: PitchShift.ratio(semitones: pitch)) { _ in
            WSOLAEngine(sampleRate: sampleRate, channelCount: channelCount)
        }
    }

    /// The output frames each sequence adds at the current rate (its hop).
    public var hopFrames: Int { (stream.engine as! WSOLAEngine).hop }
}
