import Foundation
import Glibc
import SlomoMedia

/// A `slomo batch fork-server` process that starts a batch's commands by forking itself, with
/// FFmpeg and the audio libraries loaded once, instead of each command loading them anew (about
/// 35 ms of CPU time a job, a sixth of a short retime's). A forked command is a process of its
/// own, as a spawned one is: its own process group, /dev/null as input, its log as output, and
/// a crash ends only it. The server runs one command at a time; `ForkServerPool` keeps one a lane.
public final class ForkServer: Sendable {
    let process: ChildProcess
    /// Where requests are written (the server's stdin).
    private let requests: Int32
    /// Where answers are read (the server's stdout).
    private let answers: Int32

    /// Starts the server: `slomo batch fork-server`.
    init(slomo: String) throws(BatchError) {
        let toServer = try Self.pipe(), fromServer: [Int32]
        do { fromServer = try Self.pipe() } catch {
            toServer.forEach { _ = Glibc.close($0) }
            throw error
        }
        defer { _ = Glibc.close(toServer[0]); _ = Glibc.close(fromServer[1]) }
        do {
            process = try ChildProcess(slomo, Self.arguments, streams: .pipes(input: toServer[0], output: fromServer[1]))
        } catch {
            _ = Glibc.close(toServer[1]); _ = Glibc.close(fromServer[0])
            throw error
        }
        requests = toServer[1]
        answers = fromServer[0]
    }

    /// Forks `slomo arguments…` with what it prints appended to `outputPath`; its process id.
    /// Throws when the server is gone or could not fork.
    func start(_ arguments: [String], outputPath: String) throws(BatchError) -> pid_t {
        do {
            try ForkServerMessage.write(ForkServerMessage.Request(arguments: arguments, outputPath: outputPath), to: requests)
        } catch {
            throw BatchError(.engineUnavailable, "the fork server is gone: \(error)")
        }
        guard let started = ForkServerMessage.read(ForkServerMessage.Started.self, from: answers) else {
            throw BatchError(.engineUnavailable, "the fork server ended without starting the command")
        }
        guard let pid = started.pid else {
            throw BatchError(.engineUnavailable, "the fork server could not start the command: \(started.failure ?? "no reason given")")
        }
        return pid
    }

    /// Waits for the command `start` forked to end; nil when the server ended first.
    func ended() -> ForkServerMessage.Ended? {
        ForkServerMessage.read(ForkServerMessage.Ended.self, from: answers)
    }

    /// Ends the server (it exits when its requests end) and reaps it.
    func close() {
        _ = Glibc.close(requests)
        _ = process.wait()
        _ = Glibc.close(answers)
    }

    /// A pipe's read and write ends, both closed on exec (a spawn gives the server copies).
    private static func pipe() throws(BatchError) -> [Int32] {
        var ends: [Int32] = [-1, -1]
        do {
            try SystemError.check("pipe") { Glibc.pipe(&ends) }
        } catch {
            throw BatchError(.engineUnavailable, "cannot start a fork server: \(error)")
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return ends
    }
}
