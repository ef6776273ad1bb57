import SlomoCore

extension Setting {
    /// The time-pitch algorithm sound is rendered with.
    public static let audioAlgorithm = Setting("audioAlgorithm")
}
