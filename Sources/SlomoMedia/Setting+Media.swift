import SlomoCore

/// The settings of writing a file that errors of several modules name.
extension Setting {
    /// Replacing an existing output file.
    public static let overwrite = Setting("overwrite")
    /// A movie's video codec.
    public static let codec = Setting("codec")
    /// A movie's picture size.
    public static let size = Setting("size")
    /// The codec sound is stored with.
    public static let audioCodec = Setting("audioCodec")
}
