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
    /// This end of the socket pair whose other end is the server's stdin and stdout: requests
    /// are sent and answers read here. A socket, so that a send to a server that died fails
    /// with EPIPE instead of raising SIGPIPE in the batch.
    private let socket: Int32

    /// Starts the server: `slomo batch fork-server`.
    init(slomo: String) throws(BatchError) {
        var ends: [Int32] = [-1, -1]
        do {
            try SystemError.check("socketpair") { socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) }
        } catch {
            throw BatchError(.engineUnavailable, "cannot start a fork server: \(error)")
        }
        defer { _ = Glibc.close(ends[1]) }
        do {
            process = try ChildProcess(slomo, Self.arguments, streams: .socket(ends[1]))
        } catch {
            _ = Glibc.close(ends[0])
            throw error
        }
        socket = ends[0]
    }

    /// Forks `slomo arguments…` with what it prints appended to `outputPath`; its process id.
    /// Throws when the server is gone or could not fork.
    func start(_ arguments: [String], outputPath: String) throws(BatchError) -> pid_t {
        do {
            try ForkServerMessage.write(ForkServerMessage.Request(arguments: arguments, outputPath: outputPath), to: socket)
        } catch {
            throw BatchError(.engineUnavailable, "the fork server is gone: \(error)")
        }
        guard let started = ForkServerMessage.read(ForkServerMessage.Started.self, from: socket) else {
            throw BatchError(.engineUnavailable, "the fork server ended without starting the command")
        }
        guard let pid = started.pid else {
            throw BatchError(.engineUnavailable, "the fork server could not start the command: \(started.failure ?? "no reason given")")
        }
        return pid
    }

    /// Waits for the command `start` forked to end; nil when the server ended first.
    func ended() -> ForkServerMessage.Ended? {
        ForkServerMessage.read(ForkServerMessage.Ended.self, from: socket)
    }

    /// Ends the server (it exits when its requests end) and reaps it.
    func close() {
        _ = shutdown(socket, Int32(SHUT_WR))
        _ = process.wait()
        _ = Glibc.close(socket)
    }
}
