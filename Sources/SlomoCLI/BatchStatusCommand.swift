import ArgumentParser
import Foundation
import SlomoBatch

/// `slomo batch status RUN`: counts and a table from the result files and Slurm's queue.
struct BatchStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show where every job of a batch stands, from its result files (and Slurm's queue).",
        discussion: """
            States: done (output intact), failed, changed (done, but its output has gone or \
            changed since: it runs again), queued and running (Slurm still holds it), pending.

            Examples:
              slomo batch status runs/match
              slomo batch status runs/match --json | jq '.jobs[] | select(.state == "failed") | .message'

            Exit status: 0 no job failed, 1 a job failed, 64 usage (no plan in the folder).
            """)

    @Argument(help: "The run folder.", completion: .directory)
    var runFolder: String

    @Flag(help: "Print JSON: counts and one object a job (docs/batch.md).")
    var json = false

    func run() throws {
        let folder = RunFolder(runFolder)
        let plan = try folder.plan()
        let status = BatchStatus(of: plan, in: folder, queued: Self.queued(in: folder))
        if json {
            print(try Self.jsonText(status, plan: plan))
        } else {
            print(Self.table(status))
        }
        if status.hasFailures { throw ExitCode(ExitStatus.failed) }
    }

    /// The jobs Slurm still holds, when the run was ever submitted there; a queue that cannot
    /// be asked is said on stderr and counts as empty.
    static func queued(in folder: RunFolder) -> [Int: String] {
        guard !SlurmEngine.submissions(in: folder).isEmpty else { return [:] }
        do {
            return try SlurmEngine(runFolder: folder, slomo: Batch.executable).queuedTasks()
        } catch {
            printError("warning: Slurm's queue could not be read (\(error)); queued jobs show as pending")
            return [:]
        }
    }

    /// `8 jobs: 6 done, 2 failed` and a line a job.
    static func table(_ status: BatchStatus) -> String {
        let counts = BatchStatus.State.allCases.compactMap { state -> String? in
            let count = status.count(state)
            return count == 0 ? nil : "\(count) \(state.rawValue)"
        }
        var lines = ["\(status.rows.count) job(s): " + counts.joined(separator: ", ")]
        let base = FileManager.default.currentDirectoryPath + "/"
        func shown(_ path: String) -> String { path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path }
        let width = max(5, status.rows.map { shown($0.input).count }.max() ?? 0)
        lines.append("index  state    " + "input".padding(toLength: width, withPad: " ", startingAt: 0) + "  seconds  output / message")
        for row in status.rows {
            let seconds = row.wallSeconds.map { String(format: "%7.2f", $0) } ?? "      -"
            let detail = row.state == .failed ? (row.message ?? "failed") : shown(row.output)
            let warnings = row.warnings.isEmpty ? "" : "  (\(row.warnings.count) warning(s))"
            lines.append(String(format: "%5d  ", row.index) + row.state.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0) + " "
                         + shown(row.input).padding(toLength: width, withPad: " ", startingAt: 0) + "  \(seconds)  \(detail)\(warnings)")
        }
        return lines.joined(separator: "\n")
    }

    private struct Document: Encodable {
        let schemaVersion = 1
        let slomoVersion: String
        let manifest: String
        let counts: [String: Int]
        let jobs: [BatchStatus.Row]
    }

    static func jsonText(_ status: BatchStatus, plan: BatchPlan) throws -> String {
        let counts = Dictionary(uniqueKeysWithValues: BatchStatus.State.allCases.map { ($0.rawValue, status.count($0)) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let document = Document(slomoVersion: plan.slomoVersion, manifest: plan.manifest, counts: counts, jobs: status.rows)
        return String(decoding: try encoder.encode(document), as: UTF8.self)
    }

    /// Follows Slurm `submissions` (made since `since`) until each job has its result, showing
    /// the batch's progress; exits 1 when a job failed.
    static func follow(_ submissions: [SlurmEngine.Submission], of plan: BatchPlan, engine: SlurmEngine, since: Date,
                       printer: BatchProgressPrinter) throws {
        var shown: [Int]?
        var last = BatchProgress(total: plan.jobs.count)
        let status = try engine.follow(submissions, of: plan, since: since) { progress in
            let counts = [progress.done, progress.failed, progress.running]
            if counts != shown { printer.show(progress) }
            shown = counts
            last = progress
        }
        printer.finish(last)
        if status.hasFailures { throw ExitCode(ExitStatus.failed) }
    }
}
