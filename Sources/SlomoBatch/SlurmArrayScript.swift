/// The batch script of one Slurm job array: `#SBATCH` lines (the array's task ids with the
/// `%P` throttle, where each task's own output goes, the site's `--sbatch-arg` options), and a
/// body that runs `slomo batch exec` for the task's job. Task ids count from `offset`, so that
/// a plan larger than the cluster's `MaxArraySize` is split into arrays whose ids fit.
struct SlurmArrayScript {
    let number: Int
    let runFolder: RunFolder
    let slomo: String
    let offset: Int
    let indices: [Int]
    let maxParallel: Int?
    let sbatchArguments: [String]

    var path: String { "\(runFolder.slurmFolder)/array-\(number).sh" }

    var text: String {
        let taskIds = Self.ranges(indices.map { $0 - offset }) + (maxParallel.map { "%\($0)" } ?? "")
        let index = offset == 0 ? "\"$SLURM_ARRAY_TASK_ID\"" : "\"$((SLURM_ARRAY_TASK_ID + \(offset)))\""
        return """
            #!/bin/sh
            # Written by `slomo batch run --engine slurm`: jobs \(Self.ranges(indices)) of the batch in \(runFolder.path).
            # Each task runs one job; its result goes to results/, what it printed to logs/ (docs/batch.md).
            #SBATCH --job-name=slomo-batch
            #SBATCH --array=\(taskIds)
            #SBATCH --output=\(runFolder.slurmFolder)/array-\(number)-%a.out

            """ + sbatchArguments.map { "#SBATCH \($0)\n" }.joined()
            + "exec \(Self.quoted(slomo)) batch exec \(Self.quoted(runFolder.path)) --index \(index)\n"
    }

    /// `0-3,5,7-9`: sorted ids as Slurm's `--array` ranges.
    static func ranges(_ ids: [Int]) -> String {
        var parts: [String] = []
        var start: Int?
        var previous = -2
        for id in ids.sorted() + [Int.max] {
            if id != previous + 1 {
                if let first = start { parts.append(first == previous ? "\(first)" : "\(first)-\(previous)") }
                start = id
            }
            previous = id
        }
        return parts.joined(separator: ",")
    }

    /// A path quoted for sh.
    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
