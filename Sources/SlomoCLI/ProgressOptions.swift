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

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    /// The style in effect: `--quiet` wins, then `--progress`, then a bar on terminals only.
    var style: Style {
        if quiet { return .none }
        return progress ?? (isatty(STDERR_FILENO) != 0 ? .bar : .none)
    }
}

/// Prints `ExportProgress` on stderr in the chosen style: one line redrawn in place and fitted
/// to the terminal (`ProgressLine`), ended when the export is done (or the printer is let go
/// of, so that an error starts on a line of its own), or one JSON object a line. Elapsed time
/// counts from the printer's creation.
final class ProgressPrinter {
    let style: ProgressOptions.Style
    private let started = ContinuousClock.now
    private lazy var width = TerminalWidth()
    /// True while a bar line is drawn and not yet ended.
    private var lineOpen = false
    /// True once the bar reached 100% and its line was ended.
    private var done = false

    init(style: ProgressOptions.Style) {
        self.style = style
    }

    deinit {
        if lineOpen { write("\n") }
    }

    /// One line of `--progress json`; `etaSeconds` and `speed` are absent until something was written.
    private struct Line: Encodable {
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
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            guard let data = try? encoder.encode(line) else { return }
            FileHandle.standardError.write(data + Data("\n".utf8))
        case .bar:
            guard !done else { return }
            done = progress.fraction >= 1
            lineOpen = !done
            write("\r" + ProgressLine.text(progress, elapsed: elapsed, width: width.current) + "\u{1B}[K" + (done ? "\n" : ""))
        }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    private static func rounded(_ value: Double, _ digits: Int) -> Double {
        let scale = pow(10, Double(digits))
        return (value * scale).rounded() / scale
    }
}
