import Foundation
import SlomoMedia

/// A batch's folder: `plan.json` (the jobs), `results/ID.json` (one a job that ran: the truth),
/// `logs/ID.log` (what each attempt printed) and `slurm/` (array scripts and submissions).
/// Every file in it is written whole or not at all, so a task killed at any moment leaves
/// nothing that needs repair: a job without a result is simply run again.
public struct RunFolder: Sendable {
    /// Absolute path.
    public let path: String

    public init(_ path: String) {
        self.path = InputExpansion.absolutePath(path, in: FileManager.default.currentDirectoryPath)
    }

    public var planPath: String { path + "/plan.json" }
    public var resultsFolder: String { path + "/results" }
    public var logsFolder: String { path + "/logs" }
    public var slurmFolder: String { path + "/slurm" }

    public func resultPath(of job: BatchJob) -> String { "\(resultsFolder)/\(job.id).json" }
    public func logPath(of job: BatchJob) -> String { "\(logsFolder)/\(job.id).log" }

    /// Makes the folder with `plan` in it, all at once: written beside it under a temporary
    /// name, then renamed. An existing folder is refused unless it is empty.
    public static func create(at path: String, plan: BatchPlan) throws(BatchError) -> RunFolder {
        let folder = RunFolder(path)
        let manager = FileManager.default
        if manager.fileExists(atPath: folder.path) {
            let contents = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? ["?"]
            guard contents.isEmpty, InputExpansion.isDirectory(folder.path) else {
                throw BatchError(.invalidRunFolder, "\(folder.path) already exists and is not an empty folder: give a new run folder",
                                 hint: .resumeRun)
            }
        }
        let staging = "\(folder.path).partial-\(getpid())"
        do {
            try? manager.removeItem(atPath: staging)
            for sub in ["", "/results", "/logs", "/slurm"] {
                try manager.createDirectory(atPath: staging + sub, withIntermediateDirectories: true)
            }
            try encoder.encode(plan).write(to: URL(fileURLWithPath: staging + "/plan.json"))
            if manager.fileExists(atPath: folder.path) { try manager.removeItem(atPath: folder.path) }
            try manager.moveItem(atPath: staging, toPath: folder.path)
        } catch {
            try? manager.removeItem(atPath: staging)
            throw BatchError(.invalidRunFolder, "\(folder.path): could not be written: \(error.localizedDescription)")
        }
        return folder
    }

    /// The plan; `.invalidRunFolder` when the folder holds none.
    public func plan() throws(BatchError) -> BatchPlan {
        guard let data = FileManager.default.contents(atPath: planPath) else {
            throw BatchError(.invalidRunFolder, "\(path) holds no plan.json", hint: .planRun)
        }
        do {
            return try JSONDecoder().decode(BatchPlan.self, from: data)
        } catch {
            throw BatchError(.invalidRunFolder, "\(planPath): not a plan this slomo can read (\(error))")
        }
    }

    /// The job's result, nil when it has none (or none that can be read).
    public func result(of job: BatchJob) -> JobResult? {
        guard let data = FileManager.default.contents(atPath: resultPath(of: job)) else { return nil }
        return try? JSONDecoder().decode(JobResult.self, from: data)
    }

    /// Writes `result` atomically (an unnamed file linked into place whole).
    public func record(_ result: JobResult, of job: BatchJob) throws {
        try writeAtomically(try Self.encoder.encode(result), to: resultPath(of: job))
    }

    /// The jobs an engine should run: those without a result, and those whose output is gone
    /// or changed since (unless it is no longer needed); failed ones too with `retryFailed`.
    public func pendingJobs(of plan: BatchPlan, retryFailed: Bool) -> [BatchJob] {
        let dependents = plan.dependents
        return plan.jobs.filter { job in
            guard outputNeeded(by: dependents[job.index] ?? []) else { return false }
            guard let result = result(of: job) else { return true }
            switch result.status {
            case .done: return !result.outputLooksIntact
            case .failed: return retryFailed
            }
        }
    }

    /// Whether a job's output is still needed, given the jobs that wait for it (its
    /// `BatchPlan.dependents`): always for a job no other waits for; for one whose output
    /// only others read (a chunk of a chunked export), until every one of them is done with its
    /// output intact. Then it need be neither kept nor made again (`rm -r RUN/pieces` after the
    /// joins is safe).
    public func outputNeeded(by dependents: [BatchJob]) -> Bool {
        dependents.isEmpty || !dependents.allSatisfy { result(of: $0)?.outputLooksIntact == true }
    }

    /// `data` at `path`, whole or not at all; an existing file is replaced.
    func writeAtomically(_ data: Data, to path: String) throws {
        let partial = try PartialFile(target: path, overwrite: true)
        try data.write(to: URL(fileURLWithPath: partial.writePath))
        try partial.publish()
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
