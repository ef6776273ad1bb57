/// How hard optical-flow interpolation (`--frames interpolate`, and `auto` where a section
/// lacks source frames) works to estimate motion. The raw values are the names used on the
/// command line (`--interpolation NAME`) and in edit scripts (`output.interpolation`).
public enum InterpolationPreset: String, CaseIterable, Hashable, Sendable, Codable, NamedChoice {
    /// DIS optical flow, FAST preset (the default): about 60 ms a 720p source pair plus 15 ms a
    /// rendered frame on one core.
    case fast
    /// DIS MEDIUM: finer flow, about four times slower than `fast`, +0.1–0.2 dB.
    case quality
    /// DIS ULTRAFAST without variational refinement: previews, about 40 % faster than `fast`.
    case draft

    public static let choiceName = "interpolation preset"
    /// The preset used when none is named.
    public static let defaultPreset = InterpolationPreset.fast
}
