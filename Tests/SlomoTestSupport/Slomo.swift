import Foundation

/// The built `slomo` executable, run as a user would run it.
public enum Slomo {
    /// The binary next to the test bundle in the build folder (`.build/debug/slomo`).
    public static var executable: String {
        get throws { try builtExecutable("slomo") }
    }

    /// An executable product built beside the test bundle (`.build/debug/NAME`): the CLI or
    /// one of the `Examples/`.
    public static func builtExecutable(_ name: String) throws -> String {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        throw CommandFailure(description: "the \(name) executable was not found beside \(CommandLine.arguments[0])")
    }

    /// Runs `slomo arguments…` and returns its exit status and output.
    public static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        try runCommand(try executable, arguments, environment: environment)
    }
}
