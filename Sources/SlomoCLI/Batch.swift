import ArgumentParser
import Foundation
import SlomoBatch

/// `slomo batch`: many jobs planned once and run here or on Slurm, with a result file each.
struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Run many retimes and exports: plan them once, run them here or on a Slurm cluster, resume after anything.",
        discussion: """
            A batch is a plan (a manifest's jobs, checked before anything runs) in a run folder \
            that also holds one result file a job: the truth about what is done. Running it again \
            runs only what has no good result, so a batch survives Ctrl-C, a killed node and a \
            cancelled array. docs/batch.md describes the manifest and the run folder.

            Examples:
              slomo batch plan match.yaml -o runs/match
              slomo batch plan 'in/*.mov' --section 2-4x0.25 -o out/{stem}.mov --run runs/a
              slomo batch run runs/match                      # here, a job a core
              slomo batch run runs/match --engine slurm --max-parallel 20
              slomo batch status runs/match
              slomo batch run runs/match --retry-failed
              slomo batch cancel runs/match

            \(ExitStatus.help)
            """,
        subcommands: [BatchPlanCommand.self, BatchRunCommand.self, BatchExecCommand.self, BatchStatusCommand.self,
                      BatchCancelCommand.self])

    /// The running slomo's own executable, which every job and array task runs.
    static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
