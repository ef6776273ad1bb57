import Foundation
import SlomoCapture
import SlomoConcurrency
import SlomoCore
import SlomoTestSupport
import Testing

/// Commands to a running recording through its named pipe, from the library. (Named a
/// session test so that scripts/test runs it alone: a still is judged by the frame recorded
/// the moment its line arrives.)
@Suite struct CommandFIFOSessionTests {
    /// Records a 160x120 60 fps test pattern in lossless FFV1 with a command pipe; `send`
    /// talks to it while it runs and returns when done; the reports are returned.
    static func record(_ scratch: String, send: (CaptureSession, MovieFileOutput, (String) throws -> Void, Guarded<[CaptureCommandFIFO.Report]>) throws -> Void)
        throws -> (path: String, folder: URL, reports: [CaptureCommandFIFO.Report]) {
        let reports = Guarded<[CaptureCommandFIFO.Report]>([])
        var commands: CaptureCommandFIFO?
        let (session, take, path) = try startTestPatternRecording(scratch, fps: 60, settings: { $0.encodeRawVideo(with: .ffv1) },
                                                                  configure: { session, take in
            let pipe = URL(fileURLWithPath: take.settings.path).deletingLastPathComponent().appendingPathComponent("take.cmd").path
            commands = try CaptureCommandFIFO(path: pipe, movie: take) { report in reports.withLock { $0.append(report) } }
            try commands?.attach(to: session)
        })
        let fifo = try #require(commands)
        fifo.start()
        let writer = try #require(FileHandle(forWritingAtPath: fifo.path))
        try send(session, take, { line in try writer.write(contentsOf: Data((line + "\n").utf8)) }, reports)
        session.stopRunning()
        #expect(session.waitUntilFinished(timeout: 20))
        fifo.stop()
        #expect(take.result?.finishedSuccessfully == true)
        return (path, URL(fileURLWithPath: path).deletingLastPathComponent(), reports.read { $0 })
    }

    /// Waits until `count` reports have arrived (at most 5 s).
    static func await(_ reports: Guarded<[CaptureCommandFIFO.Report]>, count: Int) {
        for _ in 0..<500 where reports.read({ $0.count }) < count { usleep(10_000) }
    }

    /// `still PATH` writes the frame being recorded when the line arrives: among the recorded
    /// frames, the picture is the one recorded then (the test pattern's moving box is its frame
    /// counter), within 3 frames.
    @Test func stillIsTheFrameRecordedWhenTheLineArrives() throws {
        var expected = 0
        var stillPath = ""
        let (path, folder, reports) = try Self.record("fifo-still") { _, take, send, reports in
            usleep(1_500_000)
            stillPath = URL(fileURLWithPath: take.settings.path).deletingLastPathComponent().appendingPathComponent("now.png").path
            expected = take.videoCounters.received - 1
            try send("still \(stillPath)")
            Self.await(reports, count: 1)
            usleep(500_000)
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try #require(reports.first)
        print("still: \(report.message); newest recorded frame when sent: \(expected)")
        #expect(report.succeeded)
        let still = try StillProbe.pixels(of: stillPath, pixelFormat: "rgb24")
        // The pattern is untagged: slomo's stills take untagged pictures as BT.709 (as exports
        // do, docs/stills.md), where the ffmpeg command assumes BT.601 — decode them alike.
        let (_, decodedData, _) = try runCapturingFiles("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-vf", "scale=in_color_matrix=bt709",
                                                                   "-pix_fmt", "rgb24", "-f", "rawvideo", "-"])
        let size = 160 * 120 * 3
        #expect(still.count == size)
        let frames = decodedData.count / size
        let stillBytes = [UInt8](still)
        let recorded = [UInt8](decodedData)
        let errors = (0..<frames).map { index in
            var sum = 0
            for offset in 0..<size { let d = Int(recorded[index * size + offset]) - Int(stillBytes[offset]); sum += d * d }
            return Double(sum) / Double(size)
        }
        let best = errors.min() ?? .infinity
        // The pattern repeats, so several frames match; the one nearest the moment counts.
        let matches = errors.indices.filter { errors[$0] <= best + 0.5 }
        let nearest = try #require(matches.min { abs($0 - expected) < abs($1 - expected) })
        let psnr = best == 0 ? 99 : 10 * log10(255 * 255 / best)
        print("still matches recorded frame \(nearest) of \(frames) at \(String(format: "%.1f", psnr)) dB; expected \(expected) (\(nearest - expected) frames)")
        #expect(psnr >= 40)
        #expect(abs(nearest - expected) <= 3)
    }

    /// A bad line is reported and the recording goes on; `pause` and `resume` act as the
    /// library's calls do; `meta` tags land in the file.
    @Test func badLinesAreReportedAndTheRecordingGoesOn() throws {
        let (path, folder, reports) = try Self.record("fifo-lines") { _, take, send, reports in
            usleep(300_000)
            for line in ["fly away", "meta =x", "still", "meta location=Court 3", "pause"] { try send(line) }
            Self.await(reports, count: 5)
            #expect(take.isRecordingPaused)
            usleep(500_000)
            try send("resume")
            try send("still \(URL(fileURLWithPath: take.settings.path).deletingLastPathComponent().appendingPathComponent("x.bmp").path)")
            Self.await(reports, count: 7)
            #expect(!take.isRecordingPaused)
            usleep(300_000)
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        for report in reports { print("\(report.succeeded ? "ok" : "refused"): \(report.message)") }
        #expect(reports.map(\.succeeded) == [false, false, false, true, true, true, false])
        #expect(reports[0].message.contains("unknown command; the commands are meta KEY=VALUE, still PATH, pause, resume"))
        #expect(reports[6].message.contains("x.bmp"))
        let tags = try FFprobe(path).format["tags"] as? [String: String] ?? [:]
        #expect(tags["location"] == "Court 3")
        let times = try videoPacketTimes(path)
        let intervals = zip(times.dropFirst(), times).map { $0 - $1 }
        print("\(times.count) frames, largest interval \(intervals.max() ?? 0) s")
        #expect(intervals.allSatisfy { $0 > 0 && $0 <= 1.0 / 60 + 0.0001 }, "paused without a gap")
    }

    /// A path that is a regular file is refused, and nothing is made; a pipe slomo made is
    /// removed when it is done with it.
    @Test func thePipeIsSlomosOwn() throws {
        let folder = try FixtureCache.shared.scratchFolder("fifo-path")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notes.txt").path
        try Data("keep".utf8).write(to: URL(fileURLWithPath: file))
        let take = MovieFileOutput(folder.appendingPathComponent("t.mov").path)
        let error = #expect(throws: CaptureError.self) { try CaptureCommandFIFO(path: file, movie: take) { _ in } }
        print(error?.description ?? "")
        #expect(error?.description.contains("exists and is not a named pipe") == true)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep")
        let pipe = folder.appendingPathComponent("take.cmd").path
        do {
            let commands = try CaptureCommandFIFO(path: pipe, movie: take) { _ in }
            #expect(FileManager.default.fileExists(atPath: commands.path))
        }
        #expect(!FileManager.default.fileExists(atPath: pipe), "removed with its reader")
    }
}
