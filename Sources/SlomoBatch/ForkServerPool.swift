import Glibc
import SlomoConcurrency

/// The launcher of the local engine and of a plan's dry runs: a `ForkServer` for each lane that
/// runs a command, started on first need and kept for the lane's next command. A server that cannot start or serve is set
/// aside and the command is spawned as a new process instead, so a batch never depends on it.
final class ForkServerPool: CommandLauncher {
    private let spawning: SpawningLauncher
    private let idle = Guarded([ForkServer]())

    init(slomo: String) {
        spawning = SpawningLauncher(slomo: slomo)
    }

    func start(_ arguments: [String], outputPath: String) throws(BatchError) -> any RunningCommand {
        guard let server = idle.withLock({ $0.popLast() }) ?? (try? ForkServer(slomo: spawning.slomo)) else {
            return try spawning.start(arguments, outputPath: outputPath)
        }
        do {
            return ForkedCommand(pid: try server.start(arguments, outputPath: outputPath), server: server, pool: self)
        } catch {
            server.close()
            return try spawning.start(arguments, outputPath: outputPath)
        }
    }

    /// Ends every server (call once no command runs).
    func close() {
        for server in idle.withLock({ servers in defer { servers = [] }; return servers }) { server.close() }
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
            pool.idle.withLock { $0.append(server) }
            return CommandExit(waitStatus: ended.waitStatus, usage: ended.usage, wallSeconds: wallSeconds)
        }
    }
}
