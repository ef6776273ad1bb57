import ArgumentParser
import Foundation
import SlomoBatch

/// The Slurm engine's options, shared by `batch run` and `export --chunks`: the site's sbatch
/// options, the array throttle, waiting, and a run folder taken as shared.
struct SlurmOptions: ParsableArguments {
    @Option(name: .customLong("sbatch-arg"), help: ArgumentHelp("Slurm: an sbatch option for every array, e.g. the partition or time limit (repeatable).", valueName: "option"))
    var sbatchArguments: [String] = []

    @Option(name: .customLong("max-parallel"), help: ArgumentHelp("Slurm: at most this many tasks of an array at once (the %P throttle).", valueName: "n"))
    var maxParallel: Int?

    @Flag(help: "Slurm: wait until the jobs end, with the batch's progress, and exit as `batch status` would.")
    var wait = false

    @Flag(name: .customLong("assume-shared"), help: "Slurm: take the run folder as shared by every node although it looks local.")
    var assumeShared = false

    /// True when any of them was given.
    var anyGiven: Bool { !sbatchArguments.isEmpty || maxParallel != nil || wait || assumeShared }

    func validate() throws {
        if let maxParallel, maxParallel < 1 { throw ValidationError("--max-parallel \(maxParallel): give 1 or more") }
    }

    /// The engine for `runFolder`, checked to be on storage its nodes share (said on stderr unless `quiet`).
    func engine(for runFolder: RunFolder, quiet: Bool) throws -> SlurmEngine {
        let engine = try SlurmEngine(runFolder: runFolder, slomo: Batch.executable, sbatchArguments: sbatchArguments, maxParallel: maxParallel)
        let storage = try engine.checkStorage(assumeShared: assumeShared)
        if !quiet { printError(storage) }
        return engine
    }
}

/// A line on stderr.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
