import Foundation

/// Runs a plan's pending jobs as Slurm job arrays: writes `RUN/slurm/array-K.sh` (split where
/// the plan is larger than the cluster's `MaxArraySize`), submits each with `sbatch
/// --parsable`, and records the job ids in `RUN/slurm/submissions.json`. Each task runs
/// `slomo batch exec RUN --index I`, so results land in the run folder as with any engine.
public struct SlurmEngine: Sendable {
    /// One array submitted (or, with `emitOnly`, written for a person to submit).
    public struct Submission: Codable, Hashable, Sendable {
        public let script: String
        /// sbatch's job id; nil for a script only written.
        public let jobId: String?
        /// The job index of task id 0.
        public let offset: Int
        public let indices: [Int]
        /// The scripts of the submissions whose tasks it waits for (`--dependency=afterany:`);
        /// absent for one that waits for none.
        public let follows: [String]?
    }

    public let runFolder: RunFolder
    public let slomo: String
    /// `#SBATCH` options of the site: `--partition=…`, `--account=…`, `--time=…`, `--mem=…`, `--cpus-per-task=…`.
    public let sbatchArguments: [String]
    /// The arrays' `%P` throttle: at most this many tasks of one array at once.
    public let maxParallel: Int?
    private let tools: SlurmTools

    /// `.engineUnavailable` when Slurm's tools are not installed.
    public init(runFolder: RunFolder, slomo: String, sbatchArguments: [String] = [], maxParallel: Int? = nil) throws(BatchError) {
        for argument in sbatchArguments where !argument.hasPrefix("-") {
            throw BatchError(.invalidPlan, "--sbatch-arg \(argument): give an sbatch option such as --partition=gpu or --time=01:00:00")
        }
        if let maxParallel, maxParallel < 1 { throw BatchError(.invalidPlan, "--max-parallel \(maxParallel): give 1 or more") }
        self.runFolder = runFolder
        self.slomo = slomo
        self.sbatchArguments = sbatchArguments
        self.maxParallel = maxParallel
        tools = try SlurmTools()
    }

    /// Says whether the run folder is where every node can read it: a sentence when it is (or
    /// when the cluster has one node); `.engineUnavailable` when it is local storage and the
    /// cluster has several nodes, unless `assumeShared`.
    public func checkStorage(assumeShared: Bool) throws(BatchError) -> String {
        let storage = SharedStorage(of: runFolder.path)
        let name = storage?.fileSystem ?? "an unknown file system"
        if storage?.isShared == true { return "\(runFolder.path) is on \(name), shared storage the nodes can read" }
        let nodes = try tools.nodeCount()
        if nodes <= 1 { return "\(runFolder.path) is on local storage (\(name)); fine for this one-node cluster" }
        if assumeShared { return "\(runFolder.path) is on \(name), taken as shared (--assume-shared)" }
        throw BatchError(.engineUnavailable, "\(runFolder.path) is on local storage (\(name)) and the cluster has \(nodes) nodes: tasks on "
                         + "other nodes would not see the plan or write their results here. Make the run folder (and the inputs and "
                         + "outputs) on storage every node mounts, or pass --assume-shared if this path is shared another way")
    }

    /// Submits the plan's jobs without a good result (failed ones too with `retryFailed`) that
    /// Slurm does not already hold from an earlier submission: those that wait for no other
    /// as arrays, and each that waits for others (a chunked export's join) as a job that
    /// starts once their tasks have ended (`--dependency=afterany:ARRAY_TASK…`; the job then
    /// fails, naming the one that failed, or stays pending when one was cancelled).
    public func submitPending(of plan: BatchPlan, retryFailed: Bool, emitOnly: Bool = false) throws(BatchError) -> [Submission] {
        let queued = emitOnly ? [:] : try queuedTasks()
        let pending = runFolder.pendingJobs(of: plan, retryFailed: retryFailed).filter { queued[$0.index] == nil }
        let waves = BatchPlan.waves(of: pending)
        guard let first = waves.first else { return [] }
        var submissions = try submit(first, emitOnly: emitOnly)
        let earlier = Self.submissions(in: runFolder).filter { $0.jobId != nil }
        for job in waves.dropFirst().joined() {
            // Where each job it waits for is: submitted just now, or still queued from before
            // (one that is neither has ended already).
            let holders = job.dependencies.compactMap { index -> (index: Int, submission: Submission)? in
                let holder = submissions.last { $0.indices.contains(index) }
                    ?? (queued[index] == nil ? nil : earlier.last { $0.indices.contains(index) })
                return holder.map { (index, $0) }
            }
            let tasks = holders.compactMap { held in held.submission.jobId.map { "\($0)_\(held.index - held.submission.offset)" } }
            let follows = Set(holders.map(\.submission.script)).sorted()
            submissions += try submit([job], after: tasks, follows: follows, emitOnly: emitOnly)
        }
        return submissions
    }

    /// Writes the array scripts for `jobs` and, unless `emitOnly`, submits them; with `after`
    /// (array tasks as `ID_TASK`), they start only once those have ended. `follows` names the
    /// scripts of those submissions.
    private func submit(_ jobs: [BatchJob], after: [String] = [], follows: [String] = [],
                        emitOnly: Bool) throws(BatchError) -> [Submission] {
        guard !jobs.isEmpty else { return [] }
        let limit = try tools.maxArraySize()
        let groups = Dictionary(grouping: jobs.map(\.index)) { $0 / limit * limit }
        var number = (try? FileManager.default.contentsOfDirectory(atPath: runFolder.slurmFolder))?
            .filter { $0.hasPrefix("array-") && $0.hasSuffix(".sh") }.count ?? 0
        var submissions: [Submission] = []
        for offset in groups.keys.sorted() {
            number += 1
            let script = SlurmArrayScript(number: number, runFolder: runFolder, slomo: slomo, offset: offset,
                                          indices: groups[offset]!.sorted(), maxParallel: maxParallel,
                                          sbatchArguments: sbatchArguments + (after.isEmpty ? [] : ["--dependency=afterany:" + after.joined(separator: ":")]))
            do {
                try FileManager.default.createDirectory(atPath: runFolder.slurmFolder, withIntermediateDirectories: true)
                try runFolder.writeAtomically(Data(script.text.utf8), to: script.path)
                chmod(script.path, 0o755)
            } catch {
                throw BatchError(.invalidRunFolder, "\(script.path): could not be written: \(error)")
            }
            var jobId: String?
            if !emitOnly {
                let answer = try tools.run("sbatch", ["--parsable", script.path])
                jobId = answer.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ";").first.map(String.init)
            }
            submissions.append(Submission(script: script.path, jobId: jobId, offset: offset, indices: script.indices,
                                          follows: follows.isEmpty ? nil : follows))
        }
        if !emitOnly { try record(submissions) }
        return submissions
    }

    /// The arrays submitted for this run folder so far.
    public static func submissions(in runFolder: RunFolder) -> [Submission] {
        guard let data = FileManager.default.contents(atPath: submissionsPath(runFolder)) else { return [] }
        return (try? JSONDecoder().decode([Submission].self, from: data)) ?? []
    }

    /// The run's tasks Slurm still holds, by job index: `PENDING`, `RUNNING`, … (squeue's states).
    public func queuedTasks() throws(BatchError) -> [Int: String] {
        let submissions = Self.submissions(in: runFolder).filter { $0.jobId != nil }
        guard !submissions.isEmpty else { return [:] }
        let offsets = Dictionary(submissions.map { ($0.jobId!, $0.offset) }) { first, _ in first }
        var states: [Int: String] = [:]
        for line in try tools.run("squeue", ["-h", "-r", "-o", "%i %T"]).split(separator: "\n") {
            let fields = line.split(separator: " ")
            let ids = fields.first?.split(separator: "_") ?? []
            guard fields.count == 2, ids.count == 2, let offset = offsets[String(ids[0])], let task = Int(ids[1]) else { continue }
            states[offset + task] = String(fields[1])
        }
        return states
    }

    /// Waits until every job of `submissions` has written its result since `since` (or has been
    /// gone from the queue for 3 s without one: a cancelled or killed task), reporting the
    /// batch's progress after every poll; returns where the batch stands then. Slurm's queue is
    /// asked, not `sbatch --wait`, whose return came seconds after the jobs ended.
    public func follow(_ submissions: [Submission], of plan: BatchPlan, since: Date,
                       progress: (BatchProgress) -> Void) throws(BatchError) -> BatchStatus {
        let waiting = Set(submissions.filter { $0.jobId != nil }.flatMap(\.indices))
        let started = Date()
        let sinceNanoseconds = Int64(since.timeIntervalSince1970 * 1e9)
        var goneSince: [Int: Date] = [:]
        while true {
            let queued = try queuedTasks()
            let status = BatchStatus(of: plan, in: runFolder, queued: queued)
            var report = BatchProgress(total: plan.jobs.count)
            report.done = status.count(.done)
            report.failed = status.count(.failed)
            report.running = status.count(.running)
            report.elapsedSeconds = Date().timeIntervalSince(started)
            progress(report)
            let now = Date()
            let open = waiting.filter { index in
                let written = FileIdentity(of: runFolder.resultPath(of: plan.jobs[index])).map { $0.modifiedNanoseconds >= sinceNanoseconds }
                if written == true { return false }
                if queued[index] != nil {
                    goneSince[index] = nil
                    return true
                }
                let gone = goneSince[index] ?? now
                goneSince[index] = gone
                return now.timeIntervalSince(gone) < 3
            }
            if open.isEmpty { return status }
            usleep(250_000)
        }
    }

    /// Cancels every array of the run that Slurm still holds; returns their job ids.
    public func cancel() throws(BatchError) -> [String] {
        let ids = Self.submissions(in: runFolder).compactMap(\.jobId)
        guard !ids.isEmpty else { return [] }
        _ = try tools.run("scancel", ids)
        return ids
    }

    private func record(_ submissions: [Submission]) throws(BatchError) {
        let all = Self.submissions(in: runFolder) + submissions
        do {
            try runFolder.writeAtomically(try RunFolder.encoder.encode(all), to: Self.submissionsPath(runFolder))
        } catch {
            throw BatchError(.invalidRunFolder, "\(Self.submissionsPath(runFolder)): could not be written: \(error)")
        }
    }

    private static func submissionsPath(_ runFolder: RunFolder) -> String { runFolder.slurmFolder + "/submissions.json" }
}
