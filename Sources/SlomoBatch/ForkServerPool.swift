import Glibc
import SlomoConcurrency

/// The launcher of the local engine and of a plan's dry runs: a `ForkServer` for each lane that
/// runs a command, started on first need and kept for the lane's next command. Once a server
/// cannot start or serve, commands are spawned as new processes instead, so a batch never
/// depends on the servers.
final class ForkServerPool: CommandLauncher {
    private let spawning: SpawningLauncher
    private let state = Guarded((idle: [ForkServer](), failed: false))

    init(slomo: String) {
        spawning = SpawningLauncher(slomo: slomo)
    }

    func start(_ arguments: [String], outputPath: String) throws(BatchError) -> any RunningCommand {
        let (failed, idle) = state.withLock { state in (state.failed, state.failed ? nil : state.idle.popLast()) }
        guard !failed, let server = idle ?? (try? ForkServer(slomo: spawning.slomo)) else {
            state.withLock { $0.failed = true }
            return try spawning.start(arguments, outputPath: outputPath)
        }
        do {
            return ForkedCommand(pid: try server.start(arguments, outputPath: outputPath), server: server, pool: self)
        } catch {
            server.close()
            state.withLock { $0.failed = true }
            return try spawning.start(arguments, outputPath: outputPath)
        }
    }

    /// Ends every server (call once no command runs).
    func close() {
        for server in state.withLock({ state in defer { state.idle = [] }; return state.idle }) { server.close() }
    }

    /// A command a server of the pool forked; the server goes back to the pool when it ends.
    private struct ForkedCommand: RunningCommand {
        let pid: pid_t
        let server: ForkServer
        let pool: ForkServerPool
        let started = ContinuousClock.now

        func wait() -> CommandExit {
            let ended = server.ended()
            let wallSeconds = (ContinuousClock.now - started).seconds
            guard let ended else {    // the server was killed: its command is counted as killed with it
                server.close()
                return CommandExit(waitStatus: SIGKILL, usage: .init(cpuSeconds: 0, peakMemoryBytes: 0), wallSeconds: wallSeconds)
            }
            pool.state.withLock { $0.idle.append(server) }
            return CommandExit(waitStatus: ended.waitStatus, usage: ended.usage, wallSeconds: wallSeconds)
        }
    }
}
