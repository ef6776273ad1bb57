/// An error that may be about a setting's value. It carries the setting as data (`issue`) so
/// that each front end words it its own way: `overwrite` for a Swift caller, `--overwrite` on
/// the command line. Every library module's error type conforms.
public protocol SettingError: Error, CustomStringConvertible {
    /// The setting at fault; nil when the error is not about a setting.
    var issue: SettingIssue? { get }
    /// The error's sentence with settings named by `name` (`description` names them in prose).
    func text(naming name: (Setting) -> String) -> String
}

extension SettingError {
    public func text(naming name: (Setting) -> String) -> String { issue?.text(naming: name) ?? description }
}
