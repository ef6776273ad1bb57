import Foundation

/// A helper server a test runs in the background (Xvfb, PulseAudio): started, ready once the
/// socket file it creates exists, killed when the test is done with it.
public final class Daemon {
    public let process: Process

    /// Starts `executable arguments…` and waits up to five seconds for `readyPath` to appear;
    /// nil when it did not start or never became ready (it is killed then).
    public static func start(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                             readyWhen readyPath: String) -> Daemon? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let daemon = Daemon(process)
        for _ in 0..<50 where process.isRunning {
            if FileManager.default.fileExists(atPath: readyPath) { return daemon }
            usleep(100_000)
        }
        daemon.stop()
        return nil
    }

    private init(_ process: Process) { self.process = process }

    /// Kills the server and waits for it.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}
