import Foundation

/// One long constant-frame-rate export cut into chunks, as a batch: a job a chunk renders the
/// output frames `[n0, n1)` alone into a piece (`slomo export … --chunk n0-n1`), one job beside
/// them renders the whole output's audio once (`--chunk-audio`, kept exactly), and a last job
/// joins the pieces and encodes that audio (`--join-piece`, `--join-audio`). The run folder
/// keeps finished pieces with their SHA-256, so a resumed export renders only what is missing;
/// on Slurm the pieces and the audio are an array and the join a job that waits for it
/// (`afterok`).
public struct ChunkedExport: Sendable {
    public let runFolder: RunFolder
    public let plan: BatchPlan

    /// The jobs that render pieces, in frame order.
    public var pieceJobs: [BatchJob] { plan.jobs.filter { $0.options.contains("--chunk") } }
    /// The job that renders the audio, when the export has any.
    public var audioJob: BatchJob? { plan.jobs.first { $0.options.contains("--chunk-audio") } }
    /// The job that joins them into the output.
    public var joinJob: BatchJob { plan.jobs.last! }
    /// Every job the join waits for.
    public var workJobs: [BatchJob] { Array(plan.jobs.dropLast()) }

    /// Plans the export of `input` (run as `slomo export INPUT options…`) to `output` in chunks
    /// of `frameRanges`, in `runFolder`; when the folder already holds this very plan (the same
    /// input, settings, output and chunks), it is taken up again. A folder holding another
    /// plan is refused (`.invalidRunFolder`).
    public static func prepare(input: String, options: [String], output: String, overwrite: Bool, frameRanges: [Range<Int>],
                               audio: Bool, runFolder path: String) throws(BatchError) -> ChunkedExport {
        let base = FileManager.default.currentDirectoryPath
        let source = InputExpansion.absolutePath(input, in: base)
        guard let identity = FileIdentity(of: source) else { throw BatchError(.invalidPlan, "\(input): does not exist or is not a file") }
        let folder = RunFolder(path)
        let pieces = frameRanges.enumerated().map { number, frames in
            (frames, "\(folder.path)/pieces/piece-\(String(format: "%04d", number))-\(frames.lowerBound)-\(frames.upperBound).nut")
        }
        var jobs = pieces.enumerated().map { number, piece in
            BatchJob(index: number, command: .export, input: source, output: piece.1,
                     options: options + ["--chunk", "\(piece.0.lowerBound)-\(piece.0.upperBound)"], overwrite: true,
                     inputIdentity: identity,
                     place: ManifestPlace(file: "chunked export", line: nil, path: "chunk \(number + 1) of \(frameRanges.count)"))
        }
        let rendered = "\(folder.path)/pieces/audio.nut"
        if audio {
            jobs.append(BatchJob(index: jobs.count, command: .export, input: source, output: rendered, options: options + ["--chunk-audio"],
                                 overwrite: true, inputIdentity: identity, place: ManifestPlace(file: "chunked export", line: nil, path: "audio")))
        }
        jobs.append(BatchJob(index: jobs.count, command: .export, input: source, output: InputExpansion.absolutePath(output, in: base),
                             options: options + pieces.flatMap { ["--join-piece", "\($0.1):\($0.0.lowerBound)-\($0.0.upperBound)"] }
                                + (audio ? ["--join-audio", rendered] : []),
                             overwrite: overwrite, inputIdentity: identity,
                             place: ManifestPlace(file: "chunked export", line: nil, path: "join")))
        let plan = BatchPlan(manifest: "chunked export", jobs: jobs)
        if FileManager.default.fileExists(atPath: folder.planPath) {
            guard try folder.plan().jobs.map(\.id) == jobs.map(\.id) else {
                throw BatchError(.invalidRunFolder, "\(folder.path) holds the chunks of another export (other input, settings or chunks): "
                                 + "remove it, or give another --run folder")
            }
            return ChunkedExport(runFolder: folder, plan: plan)
        }
        let created = try RunFolder.create(at: path, plan: plan)
        do {
            try FileManager.default.createDirectory(atPath: created.path + "/pieces", withIntermediateDirectories: true)
        } catch {
            throw BatchError(.invalidRunFolder, "\(created.path)/pieces: could not be made: \(error.localizedDescription)")
        }
        return ChunkedExport(runFolder: created, plan: plan)
    }

    /// What a finished chunked export took.
    public struct Summary: Sendable {
        /// The join's result (its output, digest, time).
        public let join: JobResult
        /// Each piece's wall and CPU seconds, including pieces finished in an earlier run.
        public let pieces: [JobResult]
        /// The audio's, when the export has audio.
        public let audio: JobResult?
        /// The time the export takes with a machine a job: the slowest piece (or the audio), then the join.
        public var criticalPathSeconds: Double { ((pieces + [audio].compactMap { $0 }).map(\.wallSeconds).max() ?? 0) + join.wallSeconds }
        public var piecesCPUSeconds: Double { pieces.map(\.cpuSeconds).reduce(0, +) }
        /// What the jobs warned of (damage found in the source, clipped audio), each once, in order.
        public var warnings: [String] {
            var seen = Set<String>()
            return (pieces + [audio, join].compactMap { $0 }).flatMap(\.warnings).filter { seen.insert($0).inserted }
        }
    }

    /// Renders the missing pieces here, `parallelJobs` at a time, then joins them. Returns nil
    /// when a signal stopped it (finished pieces are kept); throws when a piece or the join failed.
    public func runHere(slomo: String, parallelJobs: Int, interruption: JobInterruption,
                        progress: @escaping @Sendable (BatchProgress) -> Void) throws -> Summary? {
        let engine = LocalEngine(runFolder: runFolder, slomo: slomo, parallelJobs: parallelJobs)
        let pending = runFolder.pendingJobs(of: plan, retryFailed: true).filter { $0.index != joinJob.index }
        let work = BatchPlan(manifest: plan.manifest, jobs: workJobs)
        let rendered = try engine.run(pending, of: work, interruption: interruption, progress: progress)
        guard interruption.signal == nil else { return nil }
        guard rendered.failed == 0 else { throw failure(of: workJobs) }
        switch try engine.executor.execute(joinJob, interruption: interruption) {
        case .interrupted: return nil
        case .alreadyDone(let result), .ran(let result):
            guard result.status == .done, let summary else { throw failure(of: [joinJob]) }
            return summary
        }
    }

    /// What the finished export took, from the run folder's results; nil until the join is done.
    public var summary: Summary? {
        guard let join = runFolder.result(of: joinJob), join.status == .done else { return nil }
        return Summary(join: join, pieces: pieceJobs.compactMap { runFolder.result(of: $0) }, audio: audioJob.flatMap { runFolder.result(of: $0) })
    }

    /// Submits the missing pieces (and the audio) as a Slurm array and the join as a job that
    /// starts once every one has succeeded (`--dependency=afterok`).
    public func submit(to engine: SlurmEngine) throws(BatchError) -> [SlurmEngine.Submission] {
        let queued = try engine.queuedTasks()
        let pending = runFolder.pendingJobs(of: plan, retryFailed: true).filter { queued[$0.index] == nil }
        let pieces = try engine.submit(pending.filter { $0.index != joinJob.index })
        guard pending.contains(where: { $0.index == joinJob.index }) else { return pieces }
        return pieces + (try engine.submit([joinJob], after: pieces.compactMap(\.jobId)))
    }

    /// A `.engineFailed` naming the first failed job of `jobs` and its message.
    private func failure(of jobs: [BatchJob]) -> BatchError {
        let failed = jobs.first { runFolder.result(of: $0)?.status == .failed }
        let result = failed.flatMap { runFolder.result(of: $0) }
        return BatchError(.engineFailed, "\(failed?.place.path ?? "a chunk") failed: \(result?.message ?? "see \(runFolder.logsFolder)")")
    }
}
