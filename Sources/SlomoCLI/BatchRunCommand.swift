import ArgumentParser
import Foundation
import SlomoBatch

/// `slomo batch run RUN`: runs the jobs without a good result, here or on Slurm.
struct BatchRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a planned batch's jobs that have no good result yet: here, or as Slurm job arrays.",
        discussion: """
            Only jobs without a result run (and those whose output has gone or changed since); \
            failed ones too with --retry-failed. Running it again after Ctrl-C, a crash or a \
            cancelled array picks up exactly what is missing.

            Here (--engine local, the default): --jobs at once (default: a job a core, at most \
            one a 2 GiB of memory), one progress line for the batch (done, failed, running, ETA) \
            or --progress json. Ctrl-C stops every running job cleanly: nothing half-written, \
            those jobs stay pending.

            On Slurm (--engine slurm): writes RUN/slurm/array-K.sh (#SBATCH --array=<pending \
            jobs>%P; each task runs `slomo batch exec RUN --index I`) and submits it with \
            sbatch; the run folder, inputs and outputs must be on storage every node mounts. \
            --emit-only writes the scripts for a site that submits by hand; --wait follows the \
            arrays until they end.

            Examples:
              slomo batch run runs/match
              slomo batch run runs/match --jobs 4 --progress json
              slomo batch run runs/match --retry-failed
              slomo batch run runs/match --engine slurm --sbatch-arg=--partition=video \\
                  --sbatch-arg=--time=00:30:00 --sbatch-arg=--mem=4G --sbatch-arg=--cpus-per-task=2 --max-parallel 20
              slomo batch run runs/match --engine slurm --emit-only

            Exit status: 0 every job done, 1 a job failed, 64 usage, 130 interrupted (143 on SIGTERM).
            """)

    enum Engine: String, ExpressibleByArgument, CaseIterable { case local, slurm }

    @Argument(help: "The run folder `slomo batch plan` made.", completion: .directory)
    var runFolder: String

    @Option(help: "Where jobs run: local (this machine) or slurm (job arrays).")
    var engine: Engine = .local

    @Option(help: ArgumentHelp("Local engine: jobs at once (default: a job a core, at most one a 2 GiB of memory).", valueName: "n"))
    var jobs: Int?

    @Flag(name: .customLong("retry-failed"), help: "Run failed jobs again too.")
    var retryFailed = false

    @OptionGroup(title: "Slurm") var slurm: SlurmOptions

    @Flag(name: .customLong("emit-only"), help: "Slurm: write the array scripts and print how to submit them; submit nothing.")
    var emitOnly = false

    @OptionGroup var progressOptions: ProgressOptions

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs \(jobs): give 1 or more") }
        if engine == .local, slurm.anyGiven || emitOnly {
            throw ValidationError("--sbatch-arg, --max-parallel, --emit-only, --assume-shared and --wait are for --engine slurm")
        }
        if engine == .slurm, jobs != nil { throw ValidationError("--jobs is for --engine local; Slurm's throttle is --max-parallel") }
    }

    func run() throws {
        let folder = RunFolder(runFolder)
        let plan = try folder.plan()
        let printer = BatchProgressPrinter(style: progressOptions.style)
        switch engine {
        case .local: try runHere(plan, in: folder, printer: printer)
        case .slurm: try submit(plan, in: folder, printer: printer)
        }
    }

    private func runHere(_ plan: BatchPlan, in folder: RunFolder, printer: BatchProgressPrinter) throws {
        let engine = LocalEngine(runFolder: folder, slomo: Batch.executable, parallelJobs: jobs ?? LocalEngine.defaultParallelJobs)
        let interruption = JobInterruption()
        let interrupt = Interrupt { [interruption] in interruption.interrupt(SIGINT) }
        let pending = folder.pendingJobs(of: plan, retryFailed: retryFailed)
        if !progressOptions.quiet, progressOptions.style != .json {
            printError(pending.isEmpty ? "nothing to run: every job has a result (slomo batch status \(runFolder))"
                       : "running \(pending.count) of \(plan.jobs.count) job(s), \(engine.parallelJobs) at a time")
        }
        let final = try engine.run(pending, of: plan, interruption: interruption) { printer.show($0) }
        printer.finish(final)
        if !progressOptions.quiet {
            print("\(final.done) of \(final.total) job(s) done, \(final.failed) failed (details: slomo batch status \(runFolder))")
        }
        if let signal = interruption.signal {
            throw interrupt.exitCode ?? ExitCode(128 + signal)
        }
        if final.failed > 0 { throw ExitCode(ExitStatus.failed) }
    }

    private func submit(_ plan: BatchPlan, in folder: RunFolder, printer: BatchProgressPrinter) throws {
        let engine = try slurm.engine(for: folder, quiet: progressOptions.quiet)
        let since = Date()
        let submissions = try engine.submitPending(of: plan, retryFailed: retryFailed, emitOnly: emitOnly)
        if submissions.isEmpty { print("nothing to run: every job has a result or is queued (slomo batch status \(runFolder))") }
        for submission in submissions {
            let jobs = "\(submission.indices.count) job(s)"
            if let id = submission.jobId {
                print("submitted \(submission.script) as Slurm job \(id) (\(jobs))")
            } else if let follows = submission.follows {
                print("wrote \(submission.script) (\(jobs)); submit it once the jobs of \(follows.joined(separator: " and ")) have ended: "
                      + "sbatch --dependency=afterany:ARRAY_ID \(submission.script)")
            } else {
                print("wrote \(submission.script) (\(jobs)); submit it with: sbatch \(submission.script)")
            }
        }
        guard slurm.wait, !emitOnly else { return }
        try BatchStatusCommand.follow(submissions, of: plan, engine: engine, since: since, printer: printer)
    }
}
