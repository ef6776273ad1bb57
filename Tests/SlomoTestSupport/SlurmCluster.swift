import Foundation

/// A throwaway single-node Slurm cluster for one test (`scripts/slurm-cluster`): munged,
/// slurmctld and slurmd as root without systemd, every path in a folder of its own, on ports
/// chosen free. A cluster that does not start throws: a test that needs Slurm fails, it is
/// never skipped. Stopped by its process ids when let go of.
public final class SlurmCluster {
    public let folder: URL
    /// The slurm.conf that Slurm's tools (and slomo's Slurm engine) read through `SLURM_CONF`.
    public let configuration: String

    /// Starts a cluster whose `MaxArraySize` is `maxArraySize`.
    public init(maxArraySize: Int = 1001) throws {
        folder = try FixtureCache.shared.scratchFolder("slurm")
        let result = try runCommand(Self.script, ["start", folder.path, String(maxArraySize)])
        guard result.status == 0 else {
            throw CommandFailure(description: "the test Slurm cluster did not start: \(result.standardError)")
        }
        configuration = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit { stop() }

    /// The environment Slurm's tools need to find this cluster.
    public var environment: [String: String] { ["SLURM_CONF": configuration] }

    /// Runs one of Slurm's tools against this cluster.
    public func run(_ tool: String, _ arguments: [String]) throws -> CommandResult {
        try runCommand(tool, arguments, environment: environment)
    }

    /// Waits until the queue holds no job; false when `timeout` passed first.
    public func waitUntilIdle(timeout: TimeInterval = 120) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try run("squeue", ["-h"]).standardOutput.isEmpty { return true }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return false
    }

    /// Stops the daemons.
    public func stop() {
        _ = try? runCommand(Self.script, ["stop", folder.path])
    }

    /// scripts/slurm-cluster in this repository.
    static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/slurm-cluster").path
    }
}
