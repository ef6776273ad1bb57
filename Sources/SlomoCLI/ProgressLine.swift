import Foundation
import SlomoExport

/// The text of the progress bar, fitted to a terminal width, ASCII only so that every
/// character is one column:
///
///     42% [==========>             ] 3.4/8.0 s  elapsed 0:02  ETA 0:03  1.7x  rendering audio (spectral)
///
/// Percent, ETA and speed (output seconds rendered per wall-clock second) always show; when the
/// line is too wide, the bar shrinks to `minimumBar`, then the phase goes, then the seconds,
/// then the elapsed time, then the bar. It never takes the last column, where some terminals
/// wrap.
enum ProgressLine {
    static let maximumBar = 30
    static let minimumBar = 10

    static func text(_ progress: ExportProgress, elapsed: Duration, width: Int) -> String {
        let limit = max(width - 1, 1)
        let percent = String(format: "%3.0f%%", progress.fraction * 100)
        let seconds = String(format: "%.1f/%.1f s", progress.outputTime.doubleSeconds, progress.outputDuration.doubleSeconds)
        let eta = "ETA " + (progress.remaining(elapsed: elapsed).map(clock) ?? "--:--")
        let speed = progress.speed(elapsed: elapsed).map { String(format: $0 < 1 ? "%.2fx" : "%.1fx", $0) } ?? "-.-x"
        // The lowest ranks give way first (`StatusFields`): the phase (0), ETA and speed (3) never.
        let fields: [(text: String, rank: Int)] = [(seconds, 1), ("elapsed " + clock(elapsed), 2), (eta, 3), (speed, 3),
                                                   (progress.phase, 0)]
        let room = { (tail: String) in limit - percent.count - tail.count - 2 }
        if let tail = StatusFields.joined(fields, fitting: { room($0) >= minimumBar }) {
            return percent + " " + bar(progress.fraction, width: min(room(tail), maximumBar)) + " " + tail
        }
        return String((percent + " " + eta + "  " + speed).prefix(limit))
    }

    /// `[=====>    ]`, `width` columns including the brackets.
    static func bar(_ fraction: Double, width: Int) -> String {
        let inside = width - 2
        let filled = Int(fraction * Double(inside))
        let head = filled < inside ? ">" : ""
        return "[" + String(repeating: "=", count: filled) + head
            + String(repeating: " ", count: max(0, inside - filled - head.count)) + "]"
    }

    /// `0:07`, `12:34`, `1:02:03`.
    static func clock(_ duration: Duration) -> String {
        let total = Int(duration.doubleSeconds.rounded())
        let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60)
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, seconds) : String(format: "%d:%02d", minutes, seconds)
    }
}
