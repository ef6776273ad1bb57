import Foundation
import Glibc
import SlomoMedia

/// A program a batch runs (slomo for a job or a dry run, sbatch, squeue): started with
/// `posix_spawn`, its output appended to a file, and reaped with `wait4` so that its CPU time
/// and peak memory are known. The child gets /dev/null as input and none of this process's
/// other descriptors, and its own process group, so that a terminal's Ctrl-C reaches it only
/// through `signal(_:)` (the batch decides how its jobs stop).
final class ChildProcess: Sendable {
    /// How a child ended and what it used.
    struct Exit: Sendable {
        /// Its exit status, or 128 + the signal that ended it.
        let status: Int32
        /// The signal that ended it, when one did.
        let signal: Int32?
        let wallSeconds: Double
        let cpuSeconds: Double
        let peakMemoryBytes: Int64
    }

    let pid: pid_t
    private let started = ContinuousClock.now

    /// Starts `executable arguments…` (an absolute path) with stdout and stderr appended to
    /// `outputPath`; `environment` is added to this process's own.
    init(_ executable: String, _ arguments: [String], outputPath: String, environment: [String: String] = [:]) throws(BatchError) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
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

    /// Sends `number` to the child.
    func signal(_ number: Int32) { kill(pid, number) }

    /// Waits for the child to end (once).
    func wait() -> Exit {
        var status: Int32 = 0
        var usage = rusage()
        _ = try? SystemError.check("wait4") { wait4(pid, &status, 0, &usage) }
        let termination = status & 0x7f
        let signal: Int32? = termination == 0 ? nil : termination
        let exitStatus = signal.map { 128 + $0 } ?? (status >> 8) & 0xff
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return Exit(status: exitStatus, signal: signal, wallSeconds: (ContinuousClock.now - started).seconds,
                    cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime), peakMemoryBytes: Int64(usage.ru_maxrss) * 1024)
    }

    /// Runs `executable arguments…` to its end and returns its exit and what it printed
    /// (stdout and stderr together).
    static func output(of executable: String, _ arguments: [String], environment: [String: String] = [:])
        throws(BatchError) -> (exit: Exit, text: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("slomo-batch-\(UUID().uuidString).out").path
        defer { unlink(file) }
        let child = try ChildProcess(executable, arguments, outputPath: file, environment: environment)
        let exit = child.wait()
        return (exit, (try? String(contentsOfFile: file, encoding: .utf8)) ?? "")
    }
}

extension Duration {
    /// The duration in seconds, for measurements.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
