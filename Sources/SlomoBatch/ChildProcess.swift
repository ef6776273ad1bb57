import Foundation
import Glibc
import SlomoMedia

/// A program a batch runs (slomo for a job or a dry run, a fork server, sbatch, squeue):
/// started with `posix_spawn`, its output appended to a file, and reaped with `wait4` so that
/// its CPU time and peak memory are known. The child gets /dev/null as input and none of this
/// process's other descriptors, and its own process group, so that a terminal's Ctrl-C reaches
/// it only through `signal(_:)` (the batch decides how its jobs stop).
final class ChildProcess: RunningCommand {
    /// What the child reads and where what it prints goes.
    enum Streams {
        /// /dev/null in; stdout and stderr appended to the file at the path.
        case appendingTo(String)
        /// stdin and stdout both this connected socket (a fork server's requests in, its answers
        /// out); stderr this process's own.
        case socket(Int32)
    }

    let pid: pid_t
    private let started = ContinuousClock.now

    /// Starts `executable arguments…` (an absolute path) with stdout and stderr appended to
    /// `outputPath`; `environment` is added to this process's own.
    convenience init(_ executable: String, _ arguments: [String], outputPath: String,
                     environment: [String: String] = [:]) throws(BatchError) {
        try self.init(executable, arguments, streams: .appendingTo(outputPath), environment: environment)
    }

    /// Starts `executable arguments…` (an absolute path) with `streams`; `environment` is added
    /// to this process's own.
    init(_ executable: String, _ arguments: [String], streams: Streams, environment: [String: String] = [:]) throws(BatchError) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch streams {
        case .appendingTo(let outputPath):
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .socket(let socket):
            posix_spawn_file_actions_adddup2(&actions, socket, 0)
            posix_spawn_file_actions_adddup2(&actions, socket, 1)
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let failure = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard failure == 0 else {
            throw BatchError(.engineUnavailable, "\(executable) could not be started: \(String(cString: strerror(failure)))")
        }
        self.pid = pid
    }

    /// Waits for the child to end (once).
    func wait() -> CommandExit {
        let (status, usage) = Self.reap(pid)
        return CommandExit(waitStatus: status, usage: usage, wallSeconds: (ContinuousClock.now - started).seconds)
    }

    /// Waits for the child `pid` to end; its wait status and what it used.
    static func reap(_ pid: pid_t) -> (status: Int32, usage: CommandExit.Usage) {
        var status: Int32 = 0
        var usage = rusage()
        _ = try? SystemError.check("wait4") { wait4(pid, &status, 0, &usage) }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return (status, CommandExit.Usage(cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
                                          peakMemoryBytes: Int64(usage.ru_maxrss) * 1024))
    }

    /// Runs `executable arguments…` to its end and returns its exit and what it printed
    /// (stdout and stderr together).
    static func output(of executable: String, _ arguments: [String], environment: [String: String] = [:])
        throws(BatchError) -> (exit: CommandExit, text: String) {
        try output { file throws(BatchError) in try ChildProcess(executable, arguments, outputPath: file, environment: environment) }
    }

    /// Runs the command `start` starts with its output going to the file at the path it is
    /// given, to its end; returns its exit and what it printed.
    static func output(_ start: (String) throws(BatchError) -> any RunningCommand) throws(BatchError) -> (exit: CommandExit, text: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("slomo-batch-\(UUID().uuidString).out").path
        defer { unlink(file) }
        let exit = try start(file).wait()
        return (exit, (try? String(contentsOfFile: file, encoding: .utf8)) ?? "")
    }
}

extension Duration {
    /// The duration in seconds, for measurements.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
