import Foundation

/// A helper server a test runs in the background (Xvfb, PulseAudio): started, ready once the
/// socket file it creates exists, killed when the test is done with it.
///
/// Started with `posix_spawn`, not Foundation's `Process`: `Process` learns that a child ended
/// when a socket the child inherited closes, and then calls a blocking `waitpid` on its one
/// process-monitoring thread. PulseAudio closes every inherited descriptor at start-up, so that
/// thread waited for a server that was still running, and no other child of the test process
/// (the ffmpeg player, slomo itself) was ever reaped: `waitUntilExit()` never returned. The
/// spawned server gets /dev/null for its standard streams and no other descriptor of the test
/// process, so it cannot hold a test's pipe open either.
public final class Daemon {
    /// The server's process id.
    public let pid: pid_t
    private var reaped = false

    /// Starts `executable arguments…` (with `environment`, or this process's) and waits up to
    /// five seconds for `readyPath` to appear; nil when it did not start or never became ready
    /// (it is killed then).
    public static func start(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                             readyWhen readyPath: String) -> Daemon? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Every other descriptor of the test process is closed in the server (glibc's
        // `addclosefrom_np` does not import into Swift; closing one that is gone is ignored).
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        let arguments = ([executable] + arguments).map { strdup($0) } + [nil]
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (arguments + variables).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, executable, &actions, nil, arguments, variables) == 0 else { return nil }
        let daemon = Daemon(pid)
        for _ in 0..<50 where daemon.isRunning {
            if FileManager.default.fileExists(atPath: readyPath) { return daemon }
            usleep(100_000)
        }
        daemon.stop()
        return nil
    }

    private init(_ pid: pid_t) { self.pid = pid }

    /// True until the server has ended (it is reaped when it has).
    public var isRunning: Bool {
        guard !reaped else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { reaped = true }
        return !reaped
    }

    /// Kills the server and waits for it.
    public func stop() {
        guard !reaped else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        reaped = true
    }

    deinit { stop() }
}
