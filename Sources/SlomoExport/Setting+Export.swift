import SlomoCore

/// The settings of an export that its errors name.
extension Setting {
    public static let frameRate = Setting("frameRate")
    public static let profile = Setting("profile")
    public static let crf = Setting("crf")
    public static let preset = Setting("preset")
    public static let bitRate = Setting("bitRate")
    public static let keyframeInterval = Setting("keyframeInterval")
    public static let toneMapping = Setting("toneMapping")
    /// Shutter emulation's angle and its interpolated samples (`Shutter`).
    public static let shutter = Setting("shutter", name: "shutter angle")
    public static let shutterSamples = Setting("shutterSamples")
    /// Settings only the library has (`MovieWriterSettings`).
    public static let timeBase = Setting("timeBase")
    public static let audioFormat = Setting("audioFormat")
}
