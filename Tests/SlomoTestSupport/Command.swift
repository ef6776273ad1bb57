import Foundation

/// Runs an external program (ffmpeg, ffprobe, the built `slomo`) and captures what it printed.
public struct CommandResult: Sendable {
    public let status: Int32
    public let standardOutput: String
    public let standardError: String
}

/// Runs `executable` with `arguments`, waiting for it to finish. `executable` is looked up on
/// PATH unless it contains a slash.
///
/// Output goes through temporary files, not pipes: a daemon another test starts meanwhile
/// (Xvfb, PulseAudio) can inherit a pipe's write end and keep it open, and a reader waiting
/// for end-of-file would then wait forever.
@discardableResult
public func runCommand(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
    let (status, output, error) = try runCapturingFiles(executable, arguments, environment: environment)
    return CommandResult(status: status, standardOutput: String(decoding: output, as: UTF8.self),
                         standardError: String(decoding: error, as: UTF8.self))
}

/// Runs a program with its standard output and error captured in temporary files; returns
/// its exit status and both outputs' bytes. `environment` is added to this process's own.
public func runCapturingFiles(_ executable: String, _ arguments: [String],
                              environment: [String: String] = [:]) throws -> (Int32, Data, Data) {
    let process = Process()
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    if executable.contains("/") {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
    } else {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
    }
    let folder = FileManager.default.temporaryDirectory
    let outputURL = folder.appendingPathComponent("slomo-run-\(UUID().uuidString).out")
    let errorURL = folder.appendingPathComponent("slomo-run-\(UUID().uuidString).err")
    _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
    defer {
        try? FileManager.default.removeItem(at: outputURL)
        try? FileManager.default.removeItem(at: errorURL)
    }
    let output = try FileHandle(forWritingTo: outputURL)
    let error = try FileHandle(forWritingTo: errorURL)
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try output.close()
    try error.close()
    return (process.terminationStatus, try Data(contentsOf: outputURL), try Data(contentsOf: errorURL))
}

/// A failure of an external program that a test depends on.
public struct CommandFailure: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) { self.description = description }
}

/// Runs a program and throws with its error output when it exits non-zero.
@discardableResult
public func runChecked(_ executable: String, _ arguments: [String]) throws -> CommandResult {
    let result = try runCommand(executable, arguments)
    guard result.status == 0 else {
        throw CommandFailure(description: "\(executable) \(arguments.joined(separator: " ")) exited \(result.status): \(result.standardError.suffix(2000))")
    }
    return result
}
