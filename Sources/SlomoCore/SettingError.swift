/// An error that may be about a setting's value, and may say what to do about it. It carries
/// both as data (`issue`, `hint`) so that each front end words them its own way: `overwrite`
/// for a Swift caller, `--overwrite` on the command line; "an audio stretch" for a caller, "`slomo
/// stretch`" on the command line. Every library module's error type conforms.
public protocol SettingError: Error, CustomStringConvertible {
    /// The setting at fault; nil when the error is not about a setting.
    var issue: SettingIssue? { get }
    /// What the user can do about it; nil when the library cannot say.
    var hint: Hint? { get }
    /// The error's sentence with settings named by `name`, without its hint. (The default is
    /// the issue's sentence, else `description`: a type whose `description` is `message()`
    /// implements this.)
    func text(naming name: (Setting) -> String) -> String
}

extension SettingError {
    public var hint: Hint? { nil }

    public func text(naming name: (Setting) -> String) -> String { issue?.text(naming: name) ?? description }

    /// The whole message: `text(naming:)`, then the hint in parentheses, worded by `hinting`
    /// (its prose by default). An error with a hint has this, in prose, as its `description`.
    public func message(naming name: (Setting) -> String = \.name, hinting: (Hint) -> String = \.prose) -> String {
        let sentence = text(naming: name)
        guard let hint else { return sentence }
        return "\(sentence) (\(hinting(hint)))"
    }
}
