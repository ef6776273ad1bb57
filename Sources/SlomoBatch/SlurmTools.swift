import Foundation

/// Slurm's command-line tools (`sbatch`, `squeue`, `scancel`, `scontrol`, `sinfo`), found on
/// PATH and run to their end: the one place slomo talks to Slurm. They read the cluster from
/// `SLURM_CONF` or the system's slurm.conf, as they do for a person typing them.
struct SlurmTools: Sendable {
    private let folder: String

    /// Finds the tools; `.engineUnavailable`, naming what to install, when `sbatch` is not on PATH.
    init() throws(BatchError) {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard let folder = path.split(separator: ":").map(String.init).first(where: {
            FileManager.default.isExecutableFile(atPath: "\($0)/sbatch")
        }) else {
            throw BatchError(.engineUnavailable, "--engine slurm needs Slurm's client tools, and sbatch is not on PATH: install them "
                             + "(Debian: apt-get install slurm-client; a site's module: module load slurm), or run with --engine local")
        }
        self.folder = folder
    }

    /// What `tool arguments…` printed; `.engineFailed` with its output when it exits non-zero.
    func run(_ tool: String, _ arguments: [String]) throws(BatchError) -> String {
        let (exit, text) = try ChildProcess.output(of: "\(folder)/\(tool)", arguments)
        guard exit.status == 0 else {
            throw BatchError(.engineFailed, "\(tool) \(arguments.joined(separator: " ")) failed (exit \(exit.status)): "
                             + text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return text
    }

    /// The cluster's `MaxArraySize`: array task ids must be below it.
    func maxArraySize() throws(BatchError) -> Int {
        let config = try run("scontrol", ["show", "config"])
        for line in config.split(separator: "\n") where line.hasPrefix("MaxArraySize") {
            if let value = line.split(separator: "=").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) { return value }
        }
        return 1001 // Slurm's default
    }

    /// How many nodes the cluster has.
    func nodeCount() throws(BatchError) -> Int {
        try run("sinfo", ["-h", "-o", "%D"]).split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.reduce(0, +)
    }
}
