import Foundation
import SlomoCapture

/// The text of capture's live status line, fitted to a terminal width:
///
///     ●   12.3 s/60 s  2952 frames  240.0 fps  0 dropped  queue 1  41.2 MB  ch1 -18.2/-6.0 dB
///
/// The state (● recording, ‖ paused), the recorded time, the frame rate and the dropped count
/// always show; when the line is too wide, the audio levels go first, then the queue, then
/// the frame count and the file size. It never takes the last column, where some terminals
/// wrap.
enum CaptureStatusLine {
    static func text(_ stats: CaptureStatistics, limit: Double?, width: Int) -> String {
        var recorded = String(format: "%@ %6.1f s", stats.isPaused ? "‖" : "●", stats.recordedSeconds)
        if let limit { recorded += String(format: "/%.0f s", limit) }
        let levels = stats.audioLevels.enumerated().map { channel, level in
            String(format: "ch%d %.1f/%.1f dB", channel + 1, level.averagePower, level.peakHold)
        }
        // The lowest ranks give way first (`StatusFields`): the levels (0), rank 3 never.
        let fields: [(text: String, rank: Int)] = [
            (recorded, 3), ("\(stats.video.delivered) frames", 2),
            (stats.measuredFrameRate.map { String(format: "%.1f fps", $0) } ?? "-.- fps", 3),
            ("\(stats.video.dropped) dropped", 3), ("queue \(stats.video.queued)", 1),
            (Capture.megabytes(stats.fileSize), 2),
        ] + levels.map { ($0, 0) }
        let limit = max(width - 1, 1)
        return StatusFields.joined(fields, fitting: { $0.count <= limit })
            ?? String(fields.filter { $0.rank == 3 }.map(\.text).joined(separator: "  ").prefix(limit))
    }
}
