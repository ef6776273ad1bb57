/// Something a user can do about an error, as data, so that each front end words it its own
/// way: the library says "change the speed of its sound alone with an audio stretch", the
/// command line "use `slomo stretch` for audio". Open like `Setting`: each module declares the
/// hints its errors give (`extension Hint { public static let … }`). Two hints are the same
/// when their `rawValue` is.
public struct Hint: Hashable, Sendable, CustomStringConvertible {
    /// The hint's identifier (`stretchSoundAlone`).
    public let rawValue: String
    /// The hint in prose, for a front end with no words of its own.
    public let prose: String

    public init(_ rawValue: String, prose: String) {
        self.rawValue = rawValue
        self.prose = prose
    }

    public static func == (a: Hint, b: Hint) -> Bool { a.rawValue == b.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    public var description: String { prose }
}
