/// A choice with a fixed set of names (audio algorithm, frame choice): the raw values are
/// the names used on the command line, in edit scripts and in plans.
public protocol NamedChoice: RawRepresentable, CaseIterable, CustomStringConvertible where RawValue == String {
    /// What the choice is called in messages, e.g. "audio algorithm".
    static var choiceName: String { get }
}

extension NamedChoice {
    /// Parses a name; throws `.invalidValue` listing the valid names.
    public init(parsing text: String) throws {
        guard let value = Self(rawValue: text) else {
            throw TimeModelError(.invalidValue, "unknown \(Self.choiceName) '\(text)'; expected "
                                 + Self.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self = value
    }

    /// The name.
    public var description: String { rawValue }
}
