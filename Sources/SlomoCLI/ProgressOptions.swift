import ArgumentParser
import Foundation
import SlomoExport

/// How a long command reports progress: `--progress bar|json|none` and `--quiet`.
struct ProgressOptions: ParsableArguments {
    enum Style: String, ExpressibleByArgument, CaseIterable {
        case bar, json, none
    }

    @Option(help: "Progress on stderr: a bar (default when stderr is a terminal), one JSON object a line, or none.")
    var progress: Style?

    @Flag(name: .shortAndLong, help: "Print nothing but errors and damage found in the inputs.")
    var quiet = false

    /// The style in effect: `--quiet` wins, then `--progress`, then a bar on terminals only.
    var style: Style {
        if quiet { return .none }
        return progress ?? (isatty(STDERR_FILENO) != 0 ? .bar : .none)
    }

    /// Runs a command's work with everything it says on stderr in the chosen style: with
    /// `--progress json`, damage found opening the inputs and an error before the export
    /// starts are events too, so that every line is JSON.
    func reporting<T>(_ work: (ProgressPrinter) throws -> T) throws -> T {
        let printer = ProgressPrinter(style: style, quiet: quiet)
        do {
            return try work(printer)
        } catch {
            printer.fail(error)
            throw error
        }
    }
}

/// Prints `ExportProgress` on stderr in the chosen style: one line redrawn in place and fitted
/// to the terminal (`ProgressLine`), ended when the export is done (or the printer is let go
/// of, so that an error starts on a line of its own), or one JSON object a line; and the
/// command's notes, warnings and error in the same style. Elapsed time counts from the
/// printer's creation.
final class ProgressPrinter {
    let style: ProgressOptions.Style
    /// `--quiet`: notes and warnings other than damage are not said.
    let quiet: Bool
    private let started = ContinuousClock.now
    private lazy var width = TerminalWidth()
    /// True while a bar line is drawn and not yet ended.
    private var lineOpen = false
    /// True once the bar reached 100% and its line was ended.
    private var done = false
    /// True once an `error` event was written (JSON only says an error once).
    private var failed = false

    init(style: ProgressOptions.Style, quiet: Bool = false) {
        self.style = style
        self.quiet = quiet
    }

    deinit {
        if lineOpen { write("\n") }
    }

    /// A progress line of `--progress json`; `etaSeconds` and `speed` are absent until something was written.
    private struct Line: Encodable {
        let event = "progress"
        let fraction: Double
        let outputSeconds: Double
        let durationSeconds: Double
        let videoFrames: Int
        let phase: String
        let elapsedSeconds: Double
        let etaSeconds: Double?
        let speed: Double?
    }

    func callAsFunction(_ progress: ExportProgress) {
        let elapsed = ContinuousClock.now - started
        switch style {
        case .none:
            return
        case .json:
            let line = Line(fraction: Self.rounded(progress.fraction, 4), outputSeconds: progress.outputTime.doubleSeconds,
                            durationSeconds: progress.outputDuration.doubleSeconds, videoFrames: progress.videoFrames,
                            phase: progress.phase, elapsedSeconds: Self.rounded(elapsed.doubleSeconds, 3),
                            etaSeconds: progress.remaining(elapsed: elapsed).map { Self.rounded($0.doubleSeconds, 3) },
                            speed: progress.speed(elapsed: elapsed).map { Self.rounded($0, 3) })
            emit(line)
        case .bar:
            guard !done else { return }
            done = progress.fraction >= 1
            lineOpen = !done
            write("\r" + ProgressLine.text(progress, elapsed: elapsed, width: width.current) + "\u{1B}[K" + (done ? "\n" : ""))
        }
    }

    /// An event line of `--progress json` other than progress: `start` (with the output's
    /// `path`), `note`, `warning` and `error` (with a `message`), `done` (with `path` and
    /// `outputSeconds`). docs/progress-json.md documents them.
    private struct Event: Encodable {
        let event: String
        var path: String?
        var message: String?
        var outputSeconds: Double?
        let elapsedSeconds: Double
    }

    /// Runs an export and reports it: with JSON a `start` event, the progress lines, each
    /// warning and `done`, or `error` when it fails; otherwise the bar, then each warning as a
    /// `warning: …` line (unless `quiet`, which still says what was found damaged).
    func report(output: String, _ run: ((ExportProgress) -> Void) throws -> ExportResult) throws -> ExportResult {
        if style == .json { emit(event("start", path: output)) }
        do {
            let result = try run(callAsFunction)
            for damage in result.damage { warn(damage) }
            if !quiet { for warning in result.warnings { warn(warning) } }
            if style == .json {
                var done = event("done", path: result.outputPath)
                done.outputSeconds = result.outputDuration.doubleSeconds
                emit(done)
            }
            return result
        } catch {
            fail(error)
            throw error
        }
    }

    /// A warning: a `warning` event with JSON, else a `warning: …` line. Said even when
    /// `quiet` (callers leave out what `--quiet` silences).
    func warn(_ message: String) {
        if style == .json {
            emit(event("warning", message: message))
        } else {
            write("warning: \(message)\n")
        }
    }

    /// Something worth knowing that is no problem (where a phone's slow motion came from): a
    /// `note` event with JSON, else a line of its own; nothing when `quiet`.
    func note(_ message: String) {
        guard !quiet else { return }
        if style == .json {
            emit(event("note", message: message))
        } else {
            write("\(message)\n")
        }
    }

    /// With JSON, the `error` event for `error`, once; the `Error:` line is the caller's.
    func fail(_ error: Error) {
        guard style == .json, !failed else { return }
        failed = true
        emit(event("error", message: ExitStatus.message(error)))
    }

    private func event(_ name: String, path: String? = nil, message: String? = nil) -> Event {
        Event(event: name, path: path, message: message,
              elapsedSeconds: Self.rounded((ContinuousClock.now - started).doubleSeconds, 3))
    }

    /// One JSON object on its own line of stderr.
    private func emit(_ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return }
        FileHandle.standardError.write(data + Data("\n".utf8))
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    private static func rounded(_ value: Double, _ digits: Int) -> Double {
        let scale = pow(10, Double(digits))
        return (value * scale).rounded() / scale
    }
}
