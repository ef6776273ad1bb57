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

/// Prints `ExportProgress` on stderr in the chosen style.
struct ProgressPrinter {
    let style: ProgressOptions.Style

    /// One line of `--progress json`.
    private struct Line: Encodable {
        let fraction: Double
        let outputSeconds: Double
        let durationSeconds: Double
        let videoFrames: Int
        let phase: String
    }

    func callAsFunction(_ progress: ExportProgress) {
        switch style {
        case .none:
            return
        case .json:
            let line = Line(fraction: (progress.fraction * 10000).rounded() / 10000,
                            outputSeconds: progress.outputTime.doubleSeconds,
                            durationSeconds: progress.outputDuration.doubleSeconds,
                            videoFrames: progress.videoFrames, phase: progress.phase)
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            guard let data = try? encoder.encode(line) else { return }
            FileHandle.standardError.write(data + Data("\n".utf8))
        case .bar:
            let width = 30
            let filled = Int(progress.fraction * Double(width))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            let percent = String(format: "%3.0f%%", progress.fraction * 100)
            let seconds = String(format: "%.1f/%.1f s", progress.outputTime.doubleSeconds, progress.outputDuration.doubleSeconds)
            let end = progress.fraction >= 1 ? "\n" : ""
            FileHandle.standardError.write(Data("\r\(bar) \(percent)  \(seconds)  \(progress.phase)\(end)".utf8))
        }
    }
}
