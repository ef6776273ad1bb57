/// How the audio of a section is stretched to its new duration. The raw values are the names
/// used on the command line, in edit scripts and in plans.
public enum AudioAlgorithm: String, CaseIterable, Hashable, Sendable, Codable, NamedChoice {
    /// Phase-vocoder time stretching (Rubber Band): keeps the pitch, best for music.
    case spectral
    /// Overlap-add time stretching (SoundTouch): keeps the pitch, good for speech.
    case timeDomain = "time-domain"
    /// slomo's own zero-latency splicer: keeps the pitch, for live use.
    case lowLatency = "low-latency"
    /// Resampling: changes the pitch with the speed, like tape.
    case varispeed

    public static let choiceName = "audio algorithm"
}
