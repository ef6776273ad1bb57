import Foundation
import SlomoTestSupport
import Testing

/// The progress bar as a terminal shows it (issue 16, item 3): slomo runs in a pseudo-terminal
/// made by util-linux `script`, sized with `stty`, and everything written to the terminal is
/// checked: one line redrawn in place, never wider than the terminal, with percent, elapsed
/// time, ETA and speed; and `--progress json` with the same figures.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs util-linux script"))
struct ProgressBarTests {
    /// What `command` (a shell command line) wrote to a pseudo-terminal `columns` wide. The
    /// typescript, flushed as it is written, goes to `typescript` (for a command that watches it).
    static func inTerminal(columns: Int, _ command: String, typescript: String = "/dev/null") throws -> CommandResult {
        try runCommand("script", ["-q", "-e", "-f", "-c", "stty cols \(columns) rows 24 || exit 1; \(command)", typescript])
    }

    /// `slomo retime` of the 10 s flash-and-beep clip with its standard output thrown away, so
    /// that the terminal shows only the progress on standard error.
    static func retime(_ section: String, folder: URL) throws -> String {
        "'\(try Slomo.executable)' retime '\(try Fixture.flashAndBeep.path)' --section \(section) -o '\(folder.path)/out.mov' >/dev/null"
    }

    /// The terminal output cut at every carriage return and line feed (as scalars: "\r\n" is
    /// one Character), escape sequences (clear to end of line) removed: what each redraw showed.
    static func segments(_ output: String) -> [String] {
        cut(output.replacingOccurrences(of: "\u{1B}[K", with: "")) { $0 == "\r" || $0 == "\n" }.filter { !$0.isEmpty }
    }

    /// Lines left on the screen: the output cut at line feeds, ignoring empty ones.
    static func lines(_ output: String) -> [String] {
        cut(output) { $0 == "\n" }.filter { !$0.unicodeScalars.allSatisfy { $0 == "\r" } }
    }

    private static func cut(_ text: String, at separator: (Unicode.Scalar) -> Bool) -> [String] {
        text.unicodeScalars.split(whereSeparator: separator).map { String(String.UnicodeScalarView($0)) }
    }

    @Test func oneLineRedrawnWithinEightyColumns() throws {
        let folder = try FixtureCache.shared.scratchFolder("progress-80")
        let result = try Self.inTerminal(columns: 80, try Self.retime("2-4x0.25", folder: folder))
        #expect(result.status == 0, "\(result.standardOutput)")
        let segments = Self.segments(result.standardOutput)
        let widest = segments.map(\.unicodeScalars.count).max() ?? 0
        print("80 columns: \(segments.count) redraws, widest \(widest) columns, \(Self.lines(result.standardOutput).count) line(s); "
              + "last: \(segments.last ?? "")")
        #expect(segments.count > 10)
        #expect(widest <= 80)
        #expect(Self.lines(result.standardOutput).count == 1)
        #expect(result.standardOutput.unicodeScalars.last == "\n")
        let last = try #require(segments.last)
        #expect(last.hasPrefix("100% "))
        #expect(last.contains(/elapsed \d+:\d\d/))
        #expect(last.contains(/ETA \d+:\d\d/))
        #expect(last.contains(/\s\d+\.\d+x/))
    }

    /// Made narrower while it runs (SIGWINCH), the bar fits the new width from then on.
    @Test func narrowerWindowIsFollowed() throws {
        let folder = try FixtureCache.shared.scratchFolder("progress-resize")
        let typescript = folder.appendingPathComponent("typescript").path
        // Once the first redraw is in the typescript, the window shrinks to 60 columns. ('[E]TA'
        // matches the bar's "ETA" but not itself in the command line the typescript starts with.)
        // The pseudo-terminal is named before the watcher goes to the background, whose standard
        // input is /dev/null, and resized by name (`/dev/tty` needs a controlling terminal,
        // which `script` does not always give when its own input is not a terminal).
        let shrink = "pty=$(tty); (until grep -q '[E]TA' '\(typescript)'; do sleep 0.05; done; stty -F \"$pty\" cols 60) & "
        let result = try Self.inTerminal(columns: 120, shrink + (try Self.retime("0-10x0.25", folder: folder)) + "; wait",
                                         typescript: typescript)
        #expect(result.status == 0, "\(result.standardOutput)")
        let segments = Self.segments(result.standardOutput)
        let widths = segments.map(\.unicodeScalars.count)
        print("120 then 60 columns: first \(widths.first ?? 0) columns, last \(widths.last ?? 0), widest \(widths.max() ?? 0); "
              + "last: \(segments.last ?? "")")
        #expect((widths.first ?? 0) > 60 && (widths.max() ?? 0) <= 120)
        #expect((widths.last ?? 999) <= 60)
        #expect(segments.last?.hasPrefix("100% ") == true)
        #expect(Self.lines(result.standardOutput).count == 1)
    }

    /// `capture`'s status line fits the terminal too: at 100 columns every field shows, the
    /// audio levels included; at 50 the levels and the queue give way, the recorded time, the
    /// frame rate and the dropped count stay.
    @Test func captureStatusFitsTheTerminal() throws {
        let folder = try FixtureCache.shared.scratchFolder("capture-status")
        let take = folder.appendingPathComponent("take.mov").path
        let capture = "'\(try Slomo.executable)' capture --input testsrc:320x180@30 --input sine:440 --duration 2 "
            + "-o '\(take)' --overwrite >/dev/null"
        for columns in [100, 50] {
            let result = try Self.inTerminal(columns: columns, capture)
            #expect(result.status == 0, "\(result.standardOutput)")
            let segments = Self.segments(result.standardOutput).filter { $0.hasPrefix("●") }
            let widest = segments.map(\.unicodeScalars.count).max() ?? 0
            print("capture status, \(columns) columns: \(segments.count) redraws, widest \(widest); last: \(segments.last ?? "")")
            #expect(segments.count >= 4)
            #expect(widest < columns)
            let last = try #require(segments.last)
            #expect(last.contains(/● +2\.0 s\/2 s/) && last.contains(/\d+\.\d fps/) && last.contains(/\d+ dropped/), "\(last)")
            #expect(last.contains(/ch1 -?\d+\.\d\/-?\d+\.\d dB/) == (columns == 100), "\(last)")
        }
    }

    @Test func jsonLinesCarryElapsedETAAndSpeed() throws {
        let output = try FixtureCache.shared.scratchFolder("progress-json").appendingPathComponent("slow.wav").path
        let result = try Slomo.run(["stretch", try StretchFormatTests.tone44k, "--rate", "0.8", "-o", output, "--progress", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = try jsonLines(result.standardError)
        // Issue 16, item 12: a start event, progress lines, a done event, in that order.
        let events = lines.compactMap { $0["event"] as? String }
        #expect(events.count == lines.count, "every line names its event")
        #expect(events.first == "start" && events.last == "done", "\(events)")
        #expect(lines.first?["path"] as? String == output && lines.last?["path"] as? String == output)
        #expect(lines.last?["outputSeconds"] as? Double == 2.5)
        let objects = lines.filter { $0["event"] as? String == "progress" }
        #expect(objects.count >= 2)
        for object in objects {
            for key in ["fraction", "outputSeconds", "durationSeconds", "videoFrames", "phase", "elapsedSeconds"] {
                #expect(object[key] != nil, "\(key) missing in \(object)")
            }
        }
        let last = try #require(objects.last)
        print("last --progress json line: \(last)")
        #expect(last["fraction"] as? Double == 1)
        #expect(last["etaSeconds"] as? Double == 0)
        #expect((last["speed"] as? Double).map { $0 > 0 } == true)
        #expect((last["elapsedSeconds"] as? Double).map { $0 > 0 } == true)
    }

    /// A failed export ends its JSON lines with an `error` event (then the `Error:` line).
    @Test func jsonFailureIsAnErrorEvent() throws {
        let output = try FixtureCache.shared.scratchFolder("progress-json-error").appendingPathComponent("kept.wav").path
        _ = FileManager.default.createFile(atPath: output, contents: Data("keep".utf8))
        let result = try Slomo.run(["stretch", try StretchFormatTests.tone44k, "--rate", "0.8", "-o", output, "--progress", "json"])
        #expect(result.status == 1)
        let lines = result.standardError.split(separator: "\n")
        let events = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.map { $0["event"] as? String } == ["start", "error"], "\(result.standardError)")
        #expect((events.last?["message"] as? String)?.contains("already exists") == true)
        #expect(lines.last?.hasPrefix("Error: ") == true)
    }
}
