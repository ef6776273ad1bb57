import Foundation

/// Runs an external program (ffmpeg, ffprobe, the built `slomo`) and captures what it printed.
public struct CommandResult: Sendable {
    public let status: Int32
    public let standardOutput: String
    public let standardError: String
}

/// Runs `executable` with `arguments`, waiting for it to finish. `executable` is looked up on
/// PATH unless it contains a slash.
@discardableResult
public func runCommand(_ executable: String, _ arguments: [String], input: Data? = nil) throws -> CommandResult {
    let process = Process()
    if executable.contains("/") {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
    } else {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
    }
    let output = Pipe(), error = Pipe()
    process.standardOutput = output
    process.standardError = error
    let inputPipe = Pipe()
    process.standardInput = inputPipe
    try process.run()
    if let input { inputPipe.fileHandleForWriting.write(input) }
    try inputPipe.fileHandleForWriting.close()
    // Read both pipes concurrently so that neither fills up and blocks the child.
    nonisolated(unsafe) var errorData = Data()
    let done = DispatchSemaphore(value: 0)
    let errorReader = Thread {
        errorData = error.fileHandleForReading.readDataToEndOfFile()
        done.signal()
    }
    errorReader.start()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    done.wait()
    process.waitUntilExit()
    return CommandResult(status: process.terminationStatus,
                         standardOutput: String(decoding: outputData, as: UTF8.self),
                         standardError: String(decoding: errorData, as: UTF8.self))
}

/// A failure of an external program that a test depends on.
public struct CommandFailure: Error, CustomStringConvertible {
    public let description: String
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
