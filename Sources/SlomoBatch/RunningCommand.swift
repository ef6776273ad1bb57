import Glibc

/// A job's command while it runs, started by a `CommandLauncher`: a process the batch can signal
/// and wait for, whoever its parent is.
protocol RunningCommand: Sendable {
    var pid: pid_t { get }
    /// Waits for the command to end (once).
    func wait() -> CommandExit
}

extension RunningCommand {
    /// Sends `number` to the command.
    func signal(_ number: Int32) { kill(pid, number) }
}
