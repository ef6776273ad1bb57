import Foundation

/// A program running in the background whose standard error goes to a file that a test can
/// watch while it runs (to press Ctrl-C at the right moment) without pipes that a daemon
/// started by another test could hold open.
public final class BackgroundCommand {
    public let process = Process()
    private let errorURL: URL
    private let errorHandle: FileHandle

    /// Starts `executable arguments…` with its output discarded and its errors in a file;
    /// `environment` is added to this process's.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        errorURL = FileManager.default.temporaryDirectory.appendingPathComponent("slomo-bg-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        errorHandle = try FileHandle(forWritingTo: errorURL)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errorHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? errorHandle.close()
        try? FileManager.default.removeItem(at: errorURL)
    }

    /// What the program has written to standard error so far.
    public var standardError: String {
        String(decoding: (try? Data(contentsOf: errorURL)) ?? Data(), as: UTF8.self)
    }

    /// Waits until standard error contains `text` or the program ends; true when it appeared.
    @discardableResult
    public func waitForError(containing text: String, timeout: TimeInterval = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if standardError.contains(text) { return true }
            if !process.isRunning { return standardError.contains(text) }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    /// Waits for the program to end; returns its exit status and everything it wrote to
    /// standard error.
    public func wait() -> (status: Int32, standardError: String) {
        process.waitUntilExit()
        return (process.terminationStatus, standardError)
    }
}
