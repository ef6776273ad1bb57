/// The version of slomo this library is: printed by `slomo --version` and written into JSON
/// documents (`slomoVersion`) so that a script can tell which build produced them.
public enum SlomoVersion {
    /// Semantic version of the toolkit.
    public static let current = "0.5.0"
}
