/// Which engine renders the `spectral` audio algorithm. The raw values are the names used on
/// the command line (`--spectral-engine NAME`) and in edit scripts.
public enum SpectralEngine: String, CaseIterable, Hashable, Sendable, Codable, NamedChoice {
    /// slomo's own phase vocoder with phase-gradient heap integration (the default): exact
    /// timing of attacks, clean tones, fastest.
    case phaseGradient = "phase-gradient"
    /// Rubber Band's R3 ("finer") engine: an alternative with its own character; softer,
    /// smeared attacks (about 20 ms of pre-echo at 0.25x).
    case rubberBand = "rubberband"

    public static let choiceName = "spectral engine"
    /// The engine used when none is named.
    public static let defaultEngine = SpectralEngine.phaseGradient
}
