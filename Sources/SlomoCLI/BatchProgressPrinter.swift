import Foundation
import SlomoBatch
import Synchronization

/// Prints a batch's progress on stderr in the chosen style: one line redrawn in place
///
///     62% [=========>      ] 5/8 done  1 failed  2 running  elapsed 0:12  ETA 0:08
///
/// or one JSON object a line (`event: "batch"`, the counts, `elapsedSeconds`, `etaSeconds`).
final class BatchProgressPrinter: Sendable {
    private let style: ProgressOptions.Style
    /// Whether the bar's line is open, and the terminal's width (asked for by the first bar):
    /// lines are printed under this lock.
    private let state = Mutex(State())

    private struct State {
        var lineOpen = false
        var width: TerminalWidth?
    }

    init(style: ProgressOptions.Style) { self.style = style }

    private struct Line: Encodable {
        let event = "batch"
        let total, done, failed, running, pending, skipped: Int
        let fraction, elapsedSeconds: Double
        let etaSeconds: Double?
    }

    func show(_ progress: BatchProgress) {
        state.withLock { state in draw(progress, &state) }
    }

    private func draw(_ progress: BatchProgress, _ state: inout State) {
        switch style {
        case .none:
            return
        case .json:
            let line = Line(total: progress.total, done: progress.done, failed: progress.failed, running: progress.running,
                            pending: progress.pending, skipped: progress.skipped, fraction: (progress.fraction * 1e4).rounded() / 1e4,
                            elapsedSeconds: (progress.elapsedSeconds * 1e3).rounded() / 1e3,
                            etaSeconds: progress.etaSeconds.map { ($0 * 1e3).rounded() / 1e3 })
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            if let data = try? encoder.encode(line) { FileHandle.standardError.write(data + Data("\n".utf8)) }
        case .bar:
            state.lineOpen = true
            let width = state.width ?? TerminalWidth()
            state.width = width
            FileHandle.standardError.write(Data(("\r" + text(progress, columns: width.current) + "\u{1B}[K").utf8))
        }
    }

    /// Ends the bar's line with the final counts.
    func finish(_ progress: BatchProgress) {
        state.withLock { state in
            draw(progress, &state)
            if state.lineOpen { FileHandle.standardError.write(Data("\n".utf8)) }
            state.lineOpen = false
        }
    }

    private func text(_ progress: BatchProgress, columns: Int) -> String {
        let limit = max(columns - 1, 1)
        let percent = String(format: "%3.0f%%", progress.fraction * 100)
        let eta = "ETA " + (progress.etaSeconds.map { ProgressLine.clock(.seconds($0)) } ?? "--:--")
        let fields: [(text: String, rank: Int)] = [
            ("\(progress.done)/\(progress.total) done", 3), ("\(progress.failed) failed", 3), ("\(progress.running) running", 2),
            ("elapsed " + ProgressLine.clock(.seconds(progress.elapsedSeconds)), 1), (eta, 3),
        ]
        let room = { (tail: String) in limit - percent.count - tail.count - 2 }
        if let tail = StatusFields.joined(fields, fitting: { room($0) >= ProgressLine.minimumBar }) {
            return percent + " " + ProgressLine.bar(progress.fraction, width: min(room(tail), ProgressLine.maximumBar)) + " " + tail
        }
        return String((percent + " " + fields.filter { $0.rank == 3 }.map(\.text).joined(separator: "  ")).prefix(limit))
    }
}
