import Foundation

/// One long constant-frame-rate export cut into chunks, as a batch: a job a chunk renders the
/// output frames `[n0, n1)` alone into a piece (`slomo export … --chunk n0-n1`), one job beside
/// them renders the whole output's audio once (`--chunk-audio`, kept exactly), and a last job
/// joins the pieces and that audio (`--join-piece`, `--join-audio`) once they are all done. The
/// run folder keeps finished pieces with their SHA-256, so a resumed export renders only what is
/// missing; on Slurm the pieces and the audio are an array and the join a job that waits for
/// their tasks (`afterany`).
public struct ChunkedExport: Sendable {
    public let runFolder: RunFolder
    public let plan: BatchPlan

    /// The jobs that render pieces, in frame order.
    public var pieceJobs: [BatchJob] { plan.jobs.filter { $0.options.contains("--chunk") } }
    /// The job that renders the audio, when the export has any.
    public var audioJob: BatchJob? { plan.jobs.first { $0.options.contains("--chunk-audio") } }
    /// The job that joins them into the output.
    public var joinJob: BatchJob { plan.jobs.last! }

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
        let jobs = Self.jobs(input: source, identity: identity, options: options, output: InputExpansion.absolutePath(output, in: base),
                             overwrite: overwrite, frameRanges: frameRanges, audio: audio, piecesFolder: folder.path + "/pieces",
                             firstIndex: 0) { ManifestPlace(file: "chunked export", line: nil, path: $0) }
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

    /// The jobs of one export in chunks, numbered from `firstIndex`: a job a chunk, rendering
    /// its frames into `piecesFolder`; the audio's job when `audio`; and the join, which waits
    /// for them all. `place` says where each was asked for, given its part (`chunk 2 of 3`,
    /// `audio`, `join`). A batch job with `--chunks` becomes these jobs too (`BatchPlanner`).
    static func jobs(input: String, identity: FileIdentity, options: [String], output: String, overwrite: Bool,
                     frameRanges: [Range<Int>], audio: Bool, piecesFolder: String, firstIndex: Int,
                     place: (String) -> ManifestPlace) -> [BatchJob] {
        let pieces = frameRanges.enumerated().map { number, frames in
            (frames: "\(frames.lowerBound)-\(frames.upperBound)",
             path: "\(piecesFolder)/piece-\(String(format: "%04d", number))-\(frames.lowerBound)-\(frames.upperBound).nut")
        }
        var jobs: [BatchJob] = []
        func add(output: String, options extra: [String], overwrite: Bool = true, part: String, waitsForAll: Bool = false) {
            jobs.append(BatchJob(index: firstIndex + jobs.count, command: .export, input: input, output: output, options: options + extra,
                                 overwrite: overwrite, inputIdentity: identity, place: place(part),
                                 dependencies: waitsForAll ? jobs.map(\.index) : []))
        }
        for (number, piece) in pieces.enumerated() {
            add(output: piece.path, options: ["--chunk", piece.frames], part: "chunk \(number + 1) of \(pieces.count)")
        }
        let rendered = "\(piecesFolder)/audio.nut"
        if audio { add(output: rendered, options: ["--chunk-audio"], part: "audio") }
        let joining = pieces.flatMap { ["--join-piece", "\($0.path):\($0.frames)"] } + (audio ? ["--join-audio", rendered] : [])
        add(output: output, options: joining, overwrite: overwrite, part: "join", waitsForAll: true)
        return jobs
    }

    /// How an export is cut: what `slomo export … --chunks K --dry-run --print-chunks` prints
    /// for `slomo batch plan`, which makes a batch job with `--chunks` these jobs.
    public struct Layout: Codable, Sendable {
        /// Each chunk's output frames `[n0, n1)`, in order.
        public let ranges: [Range<Int>]
        /// True when the export has audio (rendered by a job of its own).
        public let audio: Bool

        public init(ranges: [Range<Int>], audio: Bool) {
            self.ranges = ranges
            self.audio = audio
        }
    }

    /// The options that cut an export into chunks, with a value each (`--chunks 4`,
    /// `--chunk-seconds=120`); a batch job's chunks are its plan's jobs.
    public static let chunkingOptions: Set<String> = ["--chunks", "--chunk-seconds"]

    /// The options that say where and how a standalone chunked export runs, which a batch's
    /// engine decides for its jobs' chunks: those with a value, and flags.
    public static let runOptions: (valued: Set<String>, flags: Set<String>) = (
        ["--engine", "--run", "--jobs", "--sbatch-arg", "--max-parallel"], ["--keep-chunks", "--wait", "--assume-shared"])

    /// `options` without the options that cut it into chunks; nil when there were none.
    static func unchunked(_ options: [String]) -> [String]? {
        let (kept, removed) = removing(valued: chunkingOptions, flags: [], from: options)
        return removed ? kept : nil
    }

    /// `options` without the options named in `valued` (with their values: `--name value` or
    /// `--name=value`) and in `flags`; and whether any was there.
    public static func removing(valued: Set<String>, flags: Set<String>, from options: [String]) -> (kept: [String], removed: Bool) {
        var kept: [String] = []
        var rest = options[...]
        var removed = false
        while let option = rest.popFirst() {
            let name = String(option.prefix { $0 != "=" })
            if valued.contains(name) {
                if !option.contains("=") { _ = rest.popFirst() }
            } else if !flags.contains(option) {
                kept.append(option)
                continue
            }
            removed = true
        }
        return (kept, removed)
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
        _ = try engine.run(runFolder.pendingJobs(of: plan, retryFailed: true), of: plan, interruption: interruption, progress: progress)
        guard interruption.signal == nil else { return nil }
        guard let summary else { throw failure }
        return summary
    }

    /// What the finished export took, from the run folder's results; nil until the join is done.
    public var summary: Summary? {
        guard let join = runFolder.result(of: joinJob), join.status == .done else { return nil }
        return Summary(join: join, pieces: pieceJobs.compactMap { runFolder.result(of: $0) }, audio: audioJob.flatMap { runFolder.result(of: $0) })
    }

    /// A `.engineFailed` naming the first job that failed and its message.
    private var failure: BatchError {
        let failed = plan.jobs.first { runFolder.result(of: $0)?.status == .failed }
        let result = failed.flatMap { runFolder.result(of: $0) }
        return BatchError(.engineFailed, "\(failed?.place.path ?? "a chunk") failed: \(result?.message ?? "see \(runFolder.logsFolder)")")
    }
}
