import ArgumentParser
import Foundation
import SlomoBatch

/// `slomo batch cancel RUN`: cancels the run's Slurm arrays.
struct BatchCancelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Cancel a batch's Slurm job arrays (running tasks stop cleanly; their jobs stay pending).",
        discussion: """
            A running task gets SIGTERM: its command removes the unfinished output and no result \
            is written, so `slomo batch run RUN` later runs exactly those jobs. A local run is \
            stopped with Ctrl-C instead.

            Example:
              slomo batch cancel runs/match

            \(ExitStatus.help)
            """)

    @Argument(help: "The run folder.", completion: .directory)
    var runFolder: String

    func run() throws {
        let folder = RunFolder(runFolder)
        _ = try folder.plan()
        let ids = try SlurmEngine(runFolder: folder, slomo: Batch.executable).cancel()
        print(ids.isEmpty ? "nothing to cancel: the run was never submitted to Slurm" : "cancelled Slurm job(s) " + ids.joined(separator: ", "))
    }
}
