/// How a batch starts a job's command: `slomo ARGUMENTS…` with /dev/null as input, what it
/// prints appended to a log, in its own process group.
protocol CommandLauncher: Sendable {
    func start(_ arguments: [String], outputPath: String) throws(BatchError) -> any RunningCommand
}

extension CommandLauncher {
    /// Runs `slomo arguments…` to its end; returns its exit and what it printed.
    func output(_ arguments: [String]) throws(BatchError) -> (exit: CommandExit, text: String) {
        try ChildProcess.output { file throws(BatchError) in try start(arguments, outputPath: file) }
    }
}

/// Starts each command as a new process of `slomo` (`posix_spawn`).
struct SpawningLauncher: CommandLauncher {
    let slomo: String

    func start(_ arguments: [String], outputPath: String) throws(BatchError) -> any RunningCommand {
        try ChildProcess(slomo, arguments, outputPath: outputPath)
    }
}
