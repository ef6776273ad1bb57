import ArgumentParser
import Foundation
import SlomoBatch

/// `slomo batch exec RUN --index I`: the task body every engine runs.
struct BatchExecCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exec",
        abstract: "Run one job of a batch: the task body of every engine (Slurm, Kubernetes, AWS Batch, by hand).",
        discussion: """
            Without --index it reads the index its engine sets: SLURM_ARRAY_TASK_ID (Slurm job \
            arrays), JOB_COMPLETION_INDEX (Kubernetes Indexed Jobs), AWS_BATCH_JOB_ARRAY_INDEX \
            (AWS Batch array jobs). A job whose result says done and whose output still has the \
            recorded SHA-256 is not run again. The output is written whole or not at all, then \
            the result (RUN/results/ID.json); what the command printed goes to RUN/logs/ID.log.

            Examples:
              slomo batch exec runs/match --index 3
              SLURM_ARRAY_TASK_ID=3 slomo batch exec runs/match

            A job that waits for others (a chunked export's join) runs once they are done; if \
            one failed, it fails naming it; if one has not ended (cancelled), nothing runs.

            Exit status: 0 done (or done already), 1 the job failed (or waits for jobs not done: \
            no result is written then), 64 usage (no such index), 130 interrupted (143 on \
            SIGTERM, as scancel sends): no result is written then.
            """)

    @Argument(help: "The run folder.", completion: .directory)
    var runFolder: String

    @Option(help: ArgumentHelp("The job's index in the plan (from 0).", valueName: "i"))
    var index: Int?

    func run() throws {
        let folder = RunFolder(runFolder)
        let plan = try folder.plan()
        let environment = ProcessInfo.processInfo.environment
        let index = try self.index ?? TaskIndex.fromEnvironment(environment).index
        let job = try plan.job(at: index)
        let executor = JobExecutor(runFolder: folder, slomo: Batch.executable, engine: TaskIndex.engine(environment))
        let interruption = JobInterruption()
        let interrupt = Interrupt { [interruption] in interruption.interrupt(SIGTERM) }
        switch try executor.execute(job, interruption: interruption) {
        case .alreadyDone(let result):
            print("job \(index): already done (\(result.output?.path ?? job.output))")
        case .ran(let result) where result.status == .done:
            print("job \(index): done in \(result.wallSeconds) s: \(job.output)")
        case .ran(let result):
            printError("Error: job \(index) (\(job.input)): \(result.message ?? "failed")")
            throw ExitCode(ExitStatus.failed)
        case .waiting(let jobs):
            let names = jobs.map { "\($0.index) (\($0.place.path))" }.joined(separator: ", ")
            printError("Error: job \(index) waits for job(s) \(names), not done yet: nothing ran, no result written, it stays pending")
            throw ExitCode(ExitStatus.failed)
        case .interrupted(let signal):
            printError("job \(index): stopped; no result written, it stays pending")
            throw interrupt.exitCode ?? ExitCode(128 + signal)
        }
    }
}
