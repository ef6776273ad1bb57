import SlomoCore
import SlomoDetect

/// A picture of what `slomo detect` measured, for `detect --plot`: each frame's local motion
/// (averaged over a sixtieth of a second, as the moments were picked from it) against time,
/// sound onsets as green ticks rising from the floor (taller for a larger rise), cuts as
/// dashed grey lines, and the moments as red dots numbered by rank.
public struct MomentPlot: Sendable {
    /// What is drawn.
    public let analysis: MomentAnalysis
    /// The bold line at the top.
    public let title: String

    /// A plot of `analysis`, titled `Moments of NAME` unless a `title` is given.
    public init(_ analysis: MomentAnalysis, title: String? = nil) {
        self.analysis = analysis
        self.title = title ?? "Moments of \(fileName(analysis.path))"
    }

    /// Draws the plot into `file` (see `PlotFile` for formats, sizes and overwriting).
    public func write(to file: PlotFile) throws(PlotError) {
        try file.write { draw(on: $0, size: file.size) }
    }

    /// The colours of the motion curve, the onsets and the cuts (moments are `.alert` red).
    static let curve = PlotColour(hex: 0x2F6DB5)
    static let onset = PlotColour(hex: 0x3A9A5B)
    static let cut = PlotColour(hex: 0x7F7F7F)

    /// The panel and axes of the plot at `size`.
    struct Layout {
        let panel: Rect
        /// Time in seconds from the file's start.
        let time: Axis
        /// Local motion (8-bit levels × blocks).
        let activity: Axis
    }

    func layout(_ size: PlotSize) -> Layout {
        let metrics = PlotMetrics(size)
        let panel = metrics.plotArea(width: Double(size.width), height: Double(size.height))
        let end = max(analysis.duration?.doubleSeconds ?? 0, analysis.motion.last?.time.doubleSeconds ?? 0,
                      analysis.onsets.last?.time.doubleSeconds ?? 0, 0.001)
        let highest = max(analysis.smoothedActivity.max() ?? 0, 1)
        return Layout(panel: panel, time: .linear(0, end, from: panel.x, to: panel.maxX, spacing: metrics.tickSpacing),
                      activity: .linear(0, highest * 1.25, from: panel.maxY, to: panel.y, spacing: metrics.tickSpacing * 0.7))
    }

    func draw(on canvas: Canvas, size: PlotSize) {
        let metrics = PlotMetrics(size), layout = layout(size)
        let activity = analysis.smoothedActivity
        canvas.fill(Rect(x: 0, y: 0, width: canvas.width, height: canvas.height), .white)
        canvas.header(title, subtitle, metrics: metrics)
        canvas.grid(layout.panel, x: layout.time, y: layout.activity, metrics: metrics)
        canvas.clipped(to: layout.panel) {
            for cut in analysis.cuts {
                let x = layout.time.pixel(cut.doubleSeconds)
                canvas.stroke([Point(x: x, y: layout.panel.y), Point(x: x, y: layout.panel.maxY)], Self.cut,
                              width: metrics.lineWidth, dash: [6 * metrics.scale, 4 * metrics.scale])
            }
            for onset in analysis.onsets {
                let x = layout.time.pixel(onset.time.doubleSeconds)
                let height = layout.panel.height * min(1, onset.rise / 60) * 0.5
                canvas.stroke([Point(x: x, y: layout.panel.maxY), Point(x: x, y: layout.panel.maxY - height)], Self.onset,
                              width: metrics.curveWidth)
            }
            let points = zip(analysis.motion, activity).map { frame, value in
                Point(x: layout.time.pixel(frame.time.doubleSeconds), y: layout.activity.pixel(value))
            }
            if points.count > 1 { canvas.stroke(points, Self.curve, width: metrics.curveWidth) }
            for (rank, moment) in analysis.moments.enumerated() {
                let value = analysis.smoothedActivity(at: moment.time)
                let point = Point(x: layout.time.pixel(moment.time.doubleSeconds), y: layout.activity.pixel(value))
                canvas.dot(at: point, radius: 5 * metrics.scale, .alert, outline: .white)
                canvas.text("\(rank + 1)", at: Point(x: point.x, y: point.y - 2 * metrics.gap), size: metrics.noteSize, .alert,
                            bold: true, align: .centre, vertical: .bottom)
            }
        }
        canvas.axes(layout.panel, x: layout.time, y: layout.activity, xTitle: "time (s)",
                    yTitle: "local motion (levels × blocks)", metrics: metrics)
        legend.draw(on: canvas, in: layout.panel, corner: .topLeft, metrics: metrics)
    }

    /// Frames, onsets, cuts and the strongest moment.
    var subtitle: String {
        var parts = ["\(analysis.frames) frames", analysis.onsets.count == 1 ? "1 sound onset" : "\(analysis.onsets.count) sound onsets",
                     analysis.cuts.count == 1 ? "1 cut" : "\(analysis.cuts.count) cuts"]
        if let best = analysis.moments.first {
            parts.append("strongest at \(best.time.formattedSeconds()) s" + (best.frame.map { " (frame \($0))" } ?? "")
                         + " by \(best.foundBy.map(\.rawValue).joined(separator: " and "))")
        } else {
            parts.append("no moment found")
        }
        return parts.joined(separator: "  ·  ")
    }

    private var legend: Legend {
        var legend = Legend()
        legend.add(.line(Self.curve, dash: []), "local motion")
        legend.add(.line(Self.onset, dash: []), "sound onset (height: rise)")
        legend.add(.line(Self.cut, dash: [4, 3]), "cut")
        legend.add(.dot(.alert), "moment, by rank")
        return legend
    }
}
