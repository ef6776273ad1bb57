import SlomoCore

/// The settings of a recording that its errors name.
extension Setting {
    public static let fragmentInterval = Setting("fragmentInterval")
    public static let maximumDuration = Setting("maximumDuration")
    public static let maximumSize = Setting("maximumSize")
    public static let minimumFreeSpace = Setting("minimumFreeSpace")
    public static let scale = Setting("scale")
    public static let input = Setting("input")
    /// Seconds a capture source may take to open, and may go without a sample.
    public static let openTimeout = Setting("openTimeout")
    public static let stallTimeout = Setting("stallTimeout")
}
