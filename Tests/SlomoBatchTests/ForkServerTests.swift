import Foundation
import Glibc
@testable import SlomoBatch
import SlomoTestSupport
import Testing

/// The local engine's fork server: a command forked from it is the command a spawned `slomo`
/// would be (same output, same exit status, same handling of Ctrl-C), a process of its own
/// that holds none of the server's descriptors, and the server stays single-threaded.
@Suite struct ForkServerTests {
    @Test func aForkedCommandPrintsAndEndsAsASpawnedOneDoes() throws {
        let folder = try FixtureCache.shared.scratchFolder("fork-server-commands")
        let slomo = try Slomo.executable
        let clip = try BatchWorkspace.clip(1)
        let server = try ForkServer(slomo: slomo)
        defer { server.close() }
        let output = folder.appendingPathComponent("fast.wav").path
        let commands = [["--version"], ["inspect", clip], ["retime", folder.appendingPathComponent("missing.mov").path, "-o", "x.mov"],
                        ["stretch", clip, "--rate", "2", "-o", output]]
        for (number, arguments) in commands.enumerated() {
            let log = folder.appendingPathComponent("forked-\(number).log").path
            unlink(log)
            unlink(output)
            _ = try server.start(arguments, outputPath: log)
            let ended = try #require(server.ended())
            let forked = CommandExit(waitStatus: ended.waitStatus, usage: ended.usage, wallSeconds: 0)
            unlink(output)
            let spawned = try ChildProcess.output(of: slomo, arguments)
            print("fork server: slomo \(arguments.first!) exits \(forked.status), \(Int(forked.cpuSeconds * 1000)) ms CPU "
                  + "(spawned: \(spawned.exit.status), \(Int(spawned.exit.cpuSeconds * 1000)) ms)")
            #expect(forked.status == spawned.exit.status, "\(arguments)")
            #expect(try String(contentsOfFile: log, encoding: .utf8) == spawned.text, "\(arguments)")
        }
        #expect(try Self.threads(of: server.process.pid) == 1)
    }

    @Test func aForkedCommandIsAProcessOfItsOwnAndStopsOnCtrlC() throws {
        let folder = try FixtureCache.shared.scratchFolder("fork-server-process")
        let fifo = folder.appendingPathComponent("input.wav").path
        let output = folder.appendingPathComponent("slow.wav").path
        unlink(fifo)
        try #require(mkfifo(fifo, 0o600) == 0)
        let server = try ForkServer(slomo: try Slomo.executable)
        defer { server.close() }
        // stretch waits in open() until the FIFO has a writer: long enough to look at it.
        let pid = try server.start(["stretch", fifo, "--rate", "0.5", "-o", output], outputPath: folder.appendingPathComponent("log").path)
        Thread.sleep(forTimeInterval: 1)
        let fields = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8).split(separator: ")").last!.split(separator: " ")
        #expect(Int32(fields[1]) == server.process.pid, "its parent is the server")
        #expect(Int32(fields[2]) == pid, "its own process group")
        let serverEnds = try Set([0, 1].map { try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(server.process.pid)/fd/\($0)") })
        let held = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").map {
            try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")
        }
        #expect(serverEnds.isDisjoint(with: held), "it holds \(held)")
        #expect(held.contains("/dev/null"))
        #expect(try Self.threads(of: server.process.pid) == 1)
        kill(pid, SIGINT)
        let ended = try #require(server.ended())
        let exit = CommandExit(waitStatus: ended.waitStatus, usage: ended.usage, wallSeconds: 0)
        #expect(exit.status == 130, "Ctrl-C ends it as it ends slomo")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func aServerThatDiedIsAnErrorNotASignal() throws {
        let folder = try FixtureCache.shared.scratchFolder("fork-server-gone")
        let server = try ForkServer(slomo: try Slomo.executable)
        defer { server.close() }
        kill(server.process.pid, SIGKILL)
        _ = server.process.wait()
        // Sending to a pipe without a reader would end this process with SIGPIPE.
        #expect(throws: BatchError.self) { try server.start(["--version"], outputPath: folder.appendingPathComponent("log").path) }
        #expect(server.ended() == nil)
    }

    private static func threads(of pid: pid_t) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count
    }
}
