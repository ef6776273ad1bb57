import Foundation
import SlomoCore

/// What became of one job: the truth a run folder keeps in `results/ID.json`, written last and
/// atomically by whoever ran the job. A batch needs no other record.
public struct JobResult: Codable, Hashable, Sendable {
    /// `done`: the output was written and its digest recorded; `failed`: the command ended
    /// with an error (its message and exit status are here).
    public enum Status: String, Codable, Sendable {
        case done, failed
    }

    /// The output as it was written.
    public struct Output: Codable, Hashable, Sendable {
        public let path: String
        public let bytes: Int64
        public let sha256: String
        public let identity: FileIdentity
    }

    public var schemaVersion = 1
    public var slomoVersion = SlomoVersion.current
    public let index: Int
    public let id: String
    public let status: Status
    /// The command's exit status (0 done, 1 failed, 64 usage).
    public let exitStatus: Int32
    /// The command's `Error:` line without its prefix, when it failed.
    public let message: String?
    /// Every `warning:` the command printed (damage found in the input among them), and the
    /// batch's own (an input changed since the plan).
    public let warnings: [String]
    public let output: Output?
    public let wallSeconds: Double
    public let cpuSeconds: Double
    public let peakMemoryBytes: Int64
    public let host: String
    /// `local`, `slurm`, `kubernetes`, `aws-batch` or `exec` (run by hand).
    public let engine: String
    /// The engine's ids of the task that ran it (`SLURM_JOB_ID`, `SLURM_ARRAY_JOB_ID`, …).
    public let engineJobIds: [String: String]
    /// When it ended, ISO 8601.
    public let finishedAt: String
    /// Which attempt this was: 1, then one more each time the job is run again.
    public let attempt: Int

    /// True when the job is done and its output is still the file it wrote (by size and
    /// modification time: cheap enough to ask for every job of a large batch).
    public var outputLooksIntact: Bool {
        guard status == .done, let output else { return false }
        return FileIdentity(of: output.path) == output.identity
    }
}
