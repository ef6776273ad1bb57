import Foundation

/// What is wrong with a setting's value, as data: the setting, the value as given, and the
/// rest of the sentence, in which `{codec}`-style names refer to other settings. `text(naming:)`
/// words it with the caller's names for settings.
public struct SettingIssue: Hashable, Sendable, CustomStringConvertible {
    /// The setting at fault.
    public var setting: Setting
    /// Its value as given, when the sentence names it.
    public var value: String?
    /// The rest of the sentence; `{frameRate}`-style placeholders (a setting's `rawValue`) name
    /// other settings.
    public var problem: String
    /// What the sentence is about when it is not the setting itself (a file path).
    public var subject: String?
    /// The values a numeric setting accepts, in the unit the sentence uses, when the issue is
    /// that the value is outside them (`positive` for "must be positive").
    public var allowed: ClosedRange<Double>?

    /// Every number above zero.
    public static let positive: ClosedRange<Double> = Double.leastNonzeroMagnitude...Double.infinity

    /// An issue of `setting` with `value`; `problem` may name other settings as `{codec}`, and
    /// `allowed` is what the value should have been, when a range says it.
    public init(_ setting: Setting, _ value: String? = nil, _ problem: String, allowed: ClosedRange<Double>? = nil,
                subject: String? = nil) {
        self.setting = setting
        self.value = value
        self.problem = problem
        self.allowed = allowed
        self.subject = subject
    }

    /// The sentence with settings named by `name`: `"\(name(setting)) \(value): \(problem)"`.
    public func text(naming name: (Setting) -> String) -> String {
        "\(head(naming: name)): \(problem(naming: name))"
    }

    /// What the sentence is about: `subject`, else the setting and its value (`frame rate 0`).
    public func head(naming name: (Setting) -> String) -> String {
        subject ?? ([name(setting)] + (value.map { [$0] } ?? [])).joined(separator: " ")
    }

    /// The rest of the sentence alone, with settings named by `name`.
    public func problem(naming name: (Setting) -> String) -> String {
        var body = ""
        var rest = problem[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let identifier = rest[rest.index(after: open)..<close]
            body += rest[..<open]
            body += identifier.allSatisfy({ $0.isLetter }) && !identifier.isEmpty
                ? name(Setting(String(identifier))) : String(rest[open...close])
            rest = rest[rest.index(after: close)...]
        }
        return body + rest
    }

    /// The sentence in prose (`frame rate 0: the frame rate must be positive`).
    public var description: String { text(naming: \.name) }
}
