import Foundation
import Glibc
import SlomoCore
import SlomoMedia

/// The one task body of every engine (`slomo batch exec RUN --index I`, the local engine's
/// workers, a Slurm array task, a Kubernetes Indexed Job, an AWS Batch array job): runs one job
/// of a plan unless its result says done and its output still has the recorded SHA-256, then
/// records what happened. The command writes its output atomically itself; the result is
/// written after it, atomically too, so a task killed at any moment leaves the job pending.
public struct JobExecutor: Sendable {
    /// What became of a job asked to run.
    public enum Outcome: Sendable {
        /// It was done already and its output intact: nothing ran, nothing changed.
        case alreadyDone(JobResult)
        /// It ran; its result (done or failed) is recorded.
        case ran(JobResult)
        /// A signal stopped it: no result was recorded, its output was not written.
        case interrupted(signal: Int32)
        /// Jobs it waits for have not ended well yet (cancelled, killed, or their outputs gone):
        /// nothing ran, no result was recorded, it stays pending.
        case waiting(for: [BatchJob])
    }

    public let runFolder: RunFolder
    /// The slomo executable the job's command runs with (absolute path).
    public let slomo: String
    /// The engine's name recorded in results (`local`, `slurm`, …).
    public let engine: String

    /// How the job's command is started: a new process of `slomo`, or a fork of a server that
    /// has its libraries loaded already (the local engine).
    let launcher: any CommandLauncher

    public init(runFolder: RunFolder, slomo: String, engine: String) {
        self.init(runFolder: runFolder, slomo: slomo, engine: engine, launcher: SpawningLauncher(slomo: slomo))
    }

    init(runFolder: RunFolder, slomo: String, engine: String, launcher: any CommandLauncher) {
        self.runFolder = runFolder
        self.slomo = slomo
        self.engine = engine
        self.launcher = launcher
    }

    /// This executor, starting commands with `launcher`.
    func launching(with launcher: any CommandLauncher) -> JobExecutor {
        JobExecutor(runFolder: runFolder, slomo: slomo, engine: engine, launcher: launcher)
    }

    /// Runs `job` unless it is done; `interruption` stops it. A job that waits for others runs
    /// once they are all done; when one of them failed, it fails too, naming it.
    public func execute(_ job: BatchJob, interruption: JobInterruption) throws -> Outcome {
        let previous = runFolder.result(of: job)
        if let previous, previous.status == .done, let output = previous.output,
           (try? FileDigest.sha256(of: output.path)) == output.sha256 {
            return .alreadyDone(previous)
        }
        guard interruption.signal == nil else { return .interrupted(signal: interruption.signal!) }
        if !job.dependencies.isEmpty {
            let plan = try runFolder.plan()
            let awaited = try job.dependencies.map { index throws(BatchError) in
                let other = try plan.job(at: index)
                return (job: other, result: runFolder.result(of: other))
            }
            if let failed = awaited.first(where: { $0.result?.status == .failed }) {
                let message = "not run: it waits for job \(failed.job.index) (\(failed.job.place.path)), which failed: "
                    + (failed.result?.message ?? "see its log")
                return .ran(try record(failureOf: job, message: message, attempt: (previous?.attempt ?? 0) + 1))
            }
            let open = awaited.filter { $0.result?.outputLooksIntact != true }.map(\.job)
            if !open.isEmpty { return .waiting(for: open) }
        }
        var warnings: [String] = []
        if let now = FileIdentity(of: job.input), now != job.inputIdentity {
            warnings.append("\(job.input): changed since the batch was planned (\(job.inputIdentity.bytes) → \(now.bytes) bytes); "
                            + "run with what is there now")
        }
        let folder = URL(fileURLWithPath: job.output).deletingLastPathComponent().path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let log = runFolder.logPath(of: job)
        let attempt = (previous?.attempt ?? 0) + 1
        let header = "== slomo batch: job \(job.index) (\(job.id)), attempt \(attempt), \(engine) on \(Self.host) at \(Self.now())\n"
            + "== \(slomo) \(job.arguments.joined(separator: " "))\n"
        let offset = Self.append(header, to: log)
        let child = try launcher.start(job.arguments, outputPath: log)
        interruption.follow(child)
        let exit = child.wait()
        interruption.forget(child)
        if exit.status != 0, let signal = interruption.signal ?? Self.stoppingSignal(exit) {
            Self.append("== stopped by signal \(signal): no result recorded\n", to: log)
            return .interrupted(signal: signal)
        }
        let printed = Self.text(of: log, from: offset)
        warnings += JobOutcomeText.warnings(in: printed)
        var output: JobResult.Output?
        var message = exit.status == 0 ? nil : JobOutcomeText.error(in: printed)
            ?? exit.signal.map { "killed by signal \($0)\($0 == SIGKILL ? " (out of memory?)" : "")" } ?? "exited \(exit.status) (see \(log))"
        if exit.status == 0 {
            do {
                guard let identity = FileIdentity(of: job.output) else {
                    throw MediaError(.notFound, path: job.output, detail: "was not written although the command succeeded")
                }
                output = JobResult.Output(path: job.output, bytes: identity.bytes, sha256: try FileDigest.sha256(of: job.output),
                                          identity: identity)
            } catch {
                message = "\(error)"
            }
        }
        let result = JobResult(index: job.index, id: job.id, status: output == nil ? .failed : .done, exitStatus: exit.status,
                               message: message, warnings: warnings, output: output, wallSeconds: Self.rounded(exit.wallSeconds),
                               cpuSeconds: Self.rounded(exit.cpuSeconds), peakMemoryBytes: exit.peakMemoryBytes, host: Self.host,
                               engine: engine, engineJobIds: Self.engineJobIds, finishedAt: Self.now(), attempt: attempt)
        try runFolder.record(result, of: job)
        Self.append("== \(result.status.rawValue) in \(result.wallSeconds) s\n", to: log)
        return .ran(result)
    }

    /// Records that `job` failed without running, for `message`.
    private func record(failureOf job: BatchJob, message: String, attempt: Int) throws -> JobResult {
        let result = JobResult(index: job.index, id: job.id, status: .failed, exitStatus: 1, message: message, warnings: [],
                               output: nil, wallSeconds: 0, cpuSeconds: 0, peakMemoryBytes: 0, host: Self.host, engine: engine,
                               engineJobIds: Self.engineJobIds, finishedAt: Self.now(), attempt: attempt)
        try runFolder.record(result, of: job)
        Self.append("== slomo batch: job \(job.index) (\(job.id)), attempt \(attempt): \(message)\n", to: runFolder.logPath(of: job))
        return result
    }

    /// SIGINT or SIGTERM when they ended the command (by the signal, or by slomo's 130 or 143
    /// after cleaning up); any other end is the job's own failure.
    private static func stoppingSignal(_ exit: CommandExit) -> Int32? {
        [SIGINT, SIGTERM].first { exit.signal == $0 || exit.status == 128 + $0 }
    }

    /// This machine's name.
    static var host: String {
        var name = [UInt8](repeating: 0, count: 256)
        gethostname(&name, name.count - 1)
        return String(decoding: name.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// The ids of the task running this job, from the engines' environment variables.
    static var engineJobIds: [String: String] {
        let names = ["SLURM_JOB_ID", "SLURM_ARRAY_JOB_ID", "SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX",
                     "AWS_BATCH_JOB_ID", "AWS_BATCH_JOB_ARRAY_INDEX"]
        return ProcessInfo.processInfo.environment.filter { names.contains($0.key) }
    }

    /// Now, to the millisecond: jobs a second long are told apart.
    private static func now() -> String { MillisecondTimestamp.text() }

    private static func rounded(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }

    /// Appends `text` to the log at `path`; returns the log's size before it.
    @discardableResult
    private static func append(_ text: String, to path: String) -> UInt64 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return 0 }
        defer { close(descriptor) }
        let size = UInt64(max(0, lseek(descriptor, 0, SEEK_END)))
        _ = Array(text.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        return size
    }

    /// What the log holds from `offset` on: this attempt's output.
    private static func text(of path: String, from offset: UInt64) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        try? handle.seek(toOffset: offset)
        return String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
    }
}
