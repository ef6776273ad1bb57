/// A setting of an export, a recording or a writer that a library error is about, so that each
/// front end names it its own way: the library says `frame rate 0: …`, the command line
/// `--cfr 0: …`, a Swift caller `frameRate`.
///
/// Open like swift-system's `Errno`: each module declares the settings its errors name
/// (`extension Setting { public static let crf = Setting("crf") }`), and a front end matches
/// the ones it offers and words the rest by `name`. Two settings are the same when their
/// `rawValue` is.
public struct Setting: Hashable, Sendable, CustomStringConvertible {
    /// The setting's identifier, spelled as the library's property (`frameRate`).
    public let rawValue: String
    /// Its name in prose (`frame rate`).
    public let name: String

    /// The setting spelled `rawValue`, named `name` in prose (default: its words, `frameRate`
    /// → `frame rate`; a `{frameRate}` placeholder in an issue's sentence names it so).
    public init(_ rawValue: String, name: String? = nil) {
        self.rawValue = rawValue
        self.name = name ?? rawValue.reduce(into: "") { words, character in
            words += character.isUppercase ? " " + character.lowercased() : String(character)
        }
    }

    public static func == (a: Setting, b: Setting) -> Bool { a.rawValue == b.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    public var description: String { name }
}
