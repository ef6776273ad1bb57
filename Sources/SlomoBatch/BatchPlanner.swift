import Foundation
import SlomoConcurrency
import SlomoMedia

/// Checks a manifest's jobs before anything runs, the way `--dry-run` checks one command, and
/// makes the plan: inputs exist, outputs collide neither with each other nor with any input,
/// existing outputs are kept unless the job may replace them, and each job's own command,
/// run with `--dry-run` by the slomo at `slomo`, accepts its options, sections and codecs.
/// Every problem is listed at once (`BatchError.invalidPlan`). An export with `--chunks K` (or
/// `--chunk-seconds S`) becomes a job a chunk, one for its audio, and its join, which waits for
/// them (`ChunkedExport`), so that the engine spreads the chunks like any other jobs.
public struct BatchPlanner: Sendable {
    /// The slomo executable the dry runs use (absolute path).
    public let slomo: String
    /// How many dry runs go at once.
    public let parallelChecks: Int

    public init(slomo: String, parallelChecks: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.slomo = slomo
        self.parallelChecks = max(1, parallelChecks)
    }

    /// The checked plan of `manifest`, to be run in the run folder at `runFolder` (where the
    /// chunks of chunked exports go, in `pieces/`).
    public func plan(_ manifest: BatchManifest, runFolder: String) throws(BatchError) -> BatchPlan {
        var problems = manifest.problems
        var jobs: [BatchJob] = []
        for request in manifest.requests {
            let (planned, found) = expand(request, in: manifest.baseDirectory, firstIndex: jobs.count)
            jobs += planned
            problems += found
        }
        problems += jobs.flatMap(runOptionProblems)
        let clashes = collisions(among: jobs)
        problems += clashes.map(\.problem)
        let refused = Set(clashes.map(\.index))
        let (found, layouts) = dryRuns(jobs.filter { !refused.contains($0.index) })
        problems += found
        guard problems.isEmpty else {
            throw BatchError(.invalidPlan, "\(display(manifest.source)): \(problems.count) problem(s); nothing was planned", problems: problems)
        }
        guard !jobs.isEmpty else { throw BatchError(.invalidPlan, "\(display(manifest.source)): no jobs") }
        return BatchPlan(manifest: manifest.source, jobs: chunked(jobs, layouts: layouts, piecesFolder: RunFolder(runFolder).path + "/pieces"))
    }

    /// `jobs` numbered again with each chunked export made its chunks' jobs and its join;
    /// a job's chunks go to `piecesFolder/ID/`.
    private func chunked(_ jobs: [BatchJob], layouts: [Int: ChunkedExport.Layout], piecesFolder: String) -> [BatchJob] {
        var planned: [BatchJob] = []
        for job in jobs {
            guard let layout = layouts[job.index], let options = ChunkedExport.unchunked(job.options) else {
                planned.append(job.numbered(planned.count))
                continue
            }
            planned += ChunkedExport.jobs(input: job.input, identity: job.inputIdentity, options: options, output: job.output,
                                          overwrite: job.overwrite, frameRanges: layout.ranges, audio: layout.audio,
                                          piecesFolder: "\(piecesFolder)/\(job.id)", firstIndex: planned.count) { part in
                ManifestPlace(file: job.place.file, line: job.place.line, path: job.place.path.isEmpty ? part : "\(job.place.path): \(part)")
            }
        }
        return planned
    }

    /// A job's options that only a standalone chunked export takes (`--engine`, `--run`, …):
    /// in a batch, the batch's engine runs the chunks.
    private func runOptionProblems(_ job: BatchJob) -> [PlanProblem] {
        let refused = ChunkedExport.runOptions.valued.union(ChunkedExport.runOptions.flags)
        return job.options.filter { refused.contains(String($0.prefix { $0 != "=" })) }.map { option in
            PlanProblem(job.place, input: display(job.input), "\(option) is not a job option: the batch's engine runs a job's chunks; "
                        + "give the chunks alone (--chunks 8, chunks: 8 in a manifest) and the engine to slomo batch run --engine")
        }
    }

    /// The jobs of one request: one per input its glob matches.
    private func expand(_ request: JobRequest, in base: String, firstIndex: Int) -> ([BatchJob], [PlanProblem]) {
        let inputs: [String]
        if request.expands {
            inputs = InputExpansion.matches(request.input, in: base)
            if inputs.isEmpty { return ([], [PlanProblem(request.place, "inputs '\(request.input)' matches no file")]) }
            if inputs.count > 1, !InputExpansion.hasPlaceholder(request.output) {
                return ([], [PlanProblem(request.place, "output '\(request.output)' names one file for \(inputs.count) inputs: "
                                         + "give it a placeholder such as {stem} (out/{stem}-slow.mov)")])
            }
        } else {
            inputs = [InputExpansion.absolutePath(request.input, in: base)]
        }
        var jobs: [BatchJob] = []
        var problems: [PlanProblem] = []
        for (number, input) in inputs.enumerated() {
            guard let identity = FileIdentity(of: input) else {
                problems.append(PlanProblem(request.place, input: display(input), "does not exist or is not a file"))
                continue
            }
            let output = InputExpansion.output(request.output, for: input, index: number, in: base)
            let place = request.place
            jobs.append(BatchJob(index: firstIndex + jobs.count, command: request.command, input: input, output: output,
                                 options: request.options, overwrite: request.overwrite, inputIdentity: identity,
                                 place: place))
        }
        return (jobs, problems)
    }

    /// Outputs that are another job's output, any job's input, a folder, or a file that exists
    /// and may not be replaced; with the index of the job each problem refuses.
    private func collisions(among jobs: [BatchJob]) -> [(index: Int, problem: PlanProblem)] {
        var problems: [(Int, PlanProblem)] = []
        var firstWriter: [String: BatchJob] = [:]
        for job in jobs {
            func refuse(_ message: String) { problems.append((job.index, PlanProblem(job.place, input: display(job.input), message))) }
            let output = display(job.output)
            if let other = firstWriter[job.output] {
                refuse("output \(output) is also the output of \(display(other.input)) (\(other.place)): give each job its own output")
            } else {
                firstWriter[job.output] = job
            }
            if let reader = jobs.first(where: { OutputPath.sameFile($0.input, job.output) }) {
                refuse("output \(output) is an input of the batch (\(reader.place)): inputs are never written")
            } else if InputExpansion.isDirectory(job.output) {
                refuse("output \(output) is a folder; give a file name")
            } else if !job.overwrite, FileManager.default.fileExists(atPath: job.output) {
                refuse("output \(output) already exists (set overwrite: true, or pass --overwrite, to replace it)")
            }
        }
        return problems
    }

    /// Each job's command run with `--dry-run`, `parallelChecks` at a time, writing to a
    /// scratch folder (the output's own existence was checked above, and its folder is made
    /// when the job runs): the problems found, and how each chunked export is cut, by job index.
    private func dryRuns(_ jobs: [BatchJob]) -> ([PlanProblem], [Int: ChunkedExport.Layout]) {
        guard !jobs.isEmpty else { return ([], [:]) }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("slomo-batch-plan-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let found = Guarded((problems: [Int: PlanProblem](), layouts: [Int: ChunkedExport.Layout]()))
        let launcher = ForkServerPool(slomo: slomo)
        defer { launcher.close() }
        WorkLanes.run(jobs.count, lanes: parallelChecks, name: "batch dry run") { position in
            let job = jobs[position]
            switch dryRun(job, scratch: scratch, launcher: launcher) {
            case .success(let layout?): found.withLock { $0.layouts[job.index] = layout }
            case .success(nil): break
            case .failure(let problem): found.withLock { $0.problems[position] = problem }
            }
            return true
        }
        return found.read { found in (found.problems.keys.sorted().map { found.problems[$0]! }, found.layouts) }
    }

    /// A job's dry run: how it is cut when it is a chunked export (nil otherwise), or its problem.
    private func dryRun(_ job: BatchJob, scratch: String, launcher: ForkServerPool) -> Result<ChunkedExport.Layout?, PlanProblem> {
        let target = "\(scratch)/\(job.index)-\(URL(fileURLWithPath: job.output).lastPathComponent)"
        let chunked = job.command == .export && ChunkedExport.unchunked(job.options) != nil
        let arguments = [job.command.rawValue, job.input] + job.options + ["-o", target, "--dry-run"] + (chunked ? ["--print-chunks"] : [])
        func problem(_ message: String) -> Result<ChunkedExport.Layout?, PlanProblem> {
            .failure(PlanProblem(job.place, input: display(job.input), message))
        }
        do {
            let (exit, text) = try launcher.output(arguments)
            guard exit.status == 0 else { return problem(JobOutcomeText.error(in: text) ?? "the dry run exited \(exit.status)") }
            guard chunked else { return .success(nil) }
            let line = text.split(separator: "\n").last { $0.hasPrefix("{") } ?? ""
            guard let layout = try? JSONDecoder().decode(ChunkedExport.Layout.self, from: Data(line.utf8)) else {
                return problem("the dry run did not say how the export is cut into chunks (is \(slomo) this slomo?)")
            }
            return .success(layout)
        } catch {
            return problem(error.message)
        }
    }

    /// A path as the user will recognise it: relative to the working folder where it is inside it.
    private func display(_ path: String) -> String {
        let base = FileManager.default.currentDirectoryPath + "/"
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }
}
