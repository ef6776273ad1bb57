/// How the audio of a section is stretched to its new duration (AVFoundation's name for the
/// choice, `audioTimePitchAlgorithm`). The raw values are the names used on the command line,
/// in edit scripts and in plans. SlomoAudio adds each algorithm's rates and processors.
public enum TimePitchAlgorithm: String, CaseIterable, Hashable, Sendable, Codable, NamedChoice {
    /// Phase-vocoder time stretching (slomo's phase-gradient engine, or Rubber Band R3): keeps
    /// the pitch, best for music.
    case spectral
    /// Overlap-add time stretching (slomo's WSOLA): keeps the pitch, good for speech.
    case timeDomain = "time-domain"
    /// slomo's own zero-latency splicer: keeps the pitch, for live use.
    case lowLatency = "low-latency"
    /// Resampling: changes the pitch with the speed, like tape.
    case varispeed

    public static let choiceName = "audio algorithm"
}
