import Foundation
import Glibc
import SlomoMedia

extension ForkServer {
    /// The arguments that make `slomo` a fork server: `batch fork-server`.
    public static let arguments = ["batch", "fork-server"]

    /// The server's side (`slomo batch fork-server`): loads the job libraries and runs `warmUp`
    /// (which may fill caches every child would fill), then forks for each request on stdin,
    /// answers on stdout with the child's process id, waits for it and answers how it ended;
    /// exits when stdin ends. Returns only in a forked child, with the arguments of the command
    /// it is to run as `slomo` would.
    ///
    /// Forking is safe only while this process has one thread: call it on the main thread before
    /// anything starts another (an `await` of a nonisolated function starts the task pool). With
    /// more threads it refuses to serve: it exits 70, and the batch spawns its commands instead.
    public static func serve(warmingUp warmUp: () -> Void) -> [String] {
        JobLibraries.preload()
        warmUp()
        guard threadCount == 1 else { exit(70) }
        while let request = ForkServerMessage.read(ForkServerMessage.Request.self, from: 0) {
            let pid = fork()
            if pid == 0 {
                becomeCommand(writingTo: request.outputPath)
                return request.arguments
            }
            guard pid > 0 else {
                answer(ForkServerMessage.Started(pid: nil, failure: "\(SystemError(call: "fork", code: errno))"))
                continue
            }
            answer(ForkServerMessage.Started(pid: pid, failure: nil))
            let (status, usage) = ChildProcess.reap(pid)
            answer(ForkServerMessage.Ended(waitStatus: status, usage: usage))
        }
        exit(0)
    }

    /// Gives the forked child what a spawned command gets (`ChildProcess`): its own process
    /// group, /dev/null as input, stdout and stderr appended to `outputPath`, no other
    /// descriptor, no blocked signal and the default action for SIGINT, SIGTERM and SIGPIPE.
    private static func becomeCommand(writingTo outputPath: String) {
        setpgid(0, 0)
        let input = open("/dev/null", O_RDONLY)
        let output = open(outputPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard input >= 0, output >= 0 else {
            FileHandle.standardError.write(Data("slomo batch fork-server: cannot open \(outputPath): \(String(cString: strerror(errno)))\n".utf8))
            _exit(127)
        }
        dup2(input, 0)
        dup2(output, 1)
        dup2(output, 2)
        // The server holds no other descriptor: it was spawned with none (`ChildProcess`).
        for descriptor in [input, output] where descriptor > 2 { _ = Glibc.close(descriptor) }
        var none = sigset_t()
        sigemptyset(&none)
        sigprocmask(SIG_SETMASK, &none, nil)
        for number in [SIGINT, SIGTERM, SIGPIPE] { signal(number, SIG_DFL) }
    }

    /// Writes `message` to the batch; a batch that is gone ends the server.
    private static func answer(_ message: some Encodable) {
        do { try ForkServerMessage.write(message, to: 1) } catch { exit(0) }
    }

    /// The threads of this process.
    private static var threadCount: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }
}
