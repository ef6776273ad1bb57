import Foundation
import SlomoTestSupport
import Testing

// Nested in CaptureCommandTests, which is serialized: capture tests measure timing and must
// not compete with each other for the two cores.
extension CaptureCommandTests {
    /// `slomo capture --command-fifo`: lines sent while it records.
    @Suite struct CommandFIFO {
        static func send(_ line: String, to pipe: String) throws {
            let writer = try #require(FileHandle(forWritingAtPath: pipe))
            try writer.write(contentsOf: Data((line + "\n").utf8))
            try writer.close()
        }

        static func tags(_ path: String) throws -> [String: String] {
            try FFprobe(path).format["tags"] as? [String: String] ?? [:]
        }

        /// A `meta` line sent 2 s into a 5 s recording is in the file from the next fragment on,
        /// and in the finished file; `pause`/`resume` lines pause it as the signals do; a bad
        /// line is reported and the recording goes on.
        @Test func metaPauseAndResumeLines() throws {
            let folder = try FixtureCache.shared.scratchFolder("capture-fifo-cli")
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("take.mov").path
            let pipe = folder.appendingPathComponent("take.cmd").path
            let recorder = try BackgroundCommand(try Slomo.executable,
                                                 ["capture", "--input", "testsrc:320x180@60", "--duration", "5", "--fragment", "0.5",
                                                  "--command-fifo", pipe, "-o", path, "--progress", "json"])
            #expect(recorder.waitForError(containing: "\"event\":\"status\""))
            usleep(2_000_000)
            try Self.send("meta location=Court 3", to: pipe)
            try Self.send("zoom in", to: pipe)
            #expect(recorder.waitForError(containing: "\"line\":\"zoom in\"", timeout: 5))
            usleep(1_000_000)
            let whileRecording = try Self.tags(path)
            try Self.send("pause", to: pipe)
            #expect(recorder.waitForError(containing: "\"paused\":true", timeout: 5), "the status says it is paused")
            usleep(1_000_000)
            try Self.send("resume", to: pipe)
            let (status, stderr) = recorder.wait()
            #expect(status == 0, "\(stderr)")
            let commands = stderr.split(separator: "\n").filter { $0.contains("\"event\":\"command\"") }
            for line in commands { print(line) }
            #expect(commands.count == 4)
            #expect(commands[1].contains("\"succeeded\":false") && commands[1].contains("unknown command"))
            let finished = try CaptureCommandTests.finishedLine(stderr)
            let paused = finished["pausedSeconds"] as? Double ?? 0
            let tags = try Self.tags(path)
            print("tags 1 s after the line: \(whileRecording); finished: \(tags); paused \(paused) s; \(finished)")
            #expect(whileRecording["location"] == "Court 3", "written at the next fragment")
            #expect(tags["location"] == "Court 3")
            #expect(paused >= 0.9 && paused <= 1.5)
            #expect(finished["reason"] as? String == "max-duration")
            #expect(!FileManager.default.fileExists(atPath: pipe), "the pipe slomo made is gone")
        }

        /// A recording killed with SIGKILL after the fragment that follows a `meta` line keeps
        /// the tag.
        @Test func metaSurvivesSIGKILL() throws {
            let folder = try FixtureCache.shared.scratchFolder("capture-fifo-kill")
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("take.mp4").path
            let pipe = folder.appendingPathComponent("take.cmd").path
            let recorder = try BackgroundCommand(try Slomo.executable,
                                                 ["capture", "--input", "testsrc:320x180@60", "--fragment", "0.5",
                                                  "--command-fifo", pipe, "-o", path, "--progress", "json"])
            #expect(recorder.waitForError(containing: "\"event\":\"status\""))
            usleep(2_000_000)
            try Self.send("meta com.example.take=7", to: pipe)
            #expect(recorder.waitForError(containing: "\"event\":\"command\"", timeout: 5))
            usleep(1_200_000)
            kill(recorder.process.processIdentifier, SIGKILL)
            _ = recorder.wait()
            let tags = try Self.tags(path)
            let times = try CaptureCommandTests.videoTimes(path)
            print("killed: \(times.count) frames playable, tags \(tags)")
            #expect(tags["com.example.take"] == "7")
            #expect(times.count >= 150)
        }
    }
}
