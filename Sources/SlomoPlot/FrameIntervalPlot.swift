/// A picture of a video stream's frame intervals, for `slomo inspect --plot`: the interval
/// before each frame (milliseconds) against its presentation time, drawn as steps. Constant-
/// rate video is one flat line, variable frame rate shows steps between levels, dropped
/// frames stand out as spikes marked red; a dashed line shows the interval the stream's
/// nominal frame rate promises.
public struct FrameIntervalPlot: Sendable {
    /// What is drawn.
    public let intervals: FrameIntervals
    /// The bold line at the top.
    public let title: String

    /// A plot of `intervals`, titled `Frame intervals of NAME` unless a `title` is given.
    public init(_ intervals: FrameIntervals, title: String? = nil) {
        self.intervals = intervals
        self.title = title ?? "Frame intervals of \(fileName(intervals.path))"
    }

    /// Draws the plot into `file` (see `PlotFile` for formats, sizes and overwriting).
    public func write(to file: PlotFile) throws(PlotError) {
        try file.write { draw(on: $0, size: file.size) }
    }

    /// The colour of the interval curve.
    static let curve = PlotColour(hex: 0x2F6DB5)
    /// The colour of the nominal interval's line.
    static let nominal = PlotColour(hex: 0x3A9A5B)
    /// The most gaps that get their length written beside them.
    static let labelledGaps = 20

    /// The panel and axes of the plot at `size`.
    struct Layout {
        let panel: Rect
        /// Presentation time in seconds.
        let time: Axis
        /// Interval in milliseconds.
        let interval: Axis
    }

    func layout(_ size: PlotSize) -> Layout {
        let metrics = PlotMetrics(size)
        let panel = metrics.plotArea(width: Double(size.width), height: Double(size.height))
        let times = intervals.times
        let highest = max(intervals.intervals.max()!, intervals.nominalInterval ?? 0) * 1000
        return Layout(panel: panel,
                      time: .linear(min(0, times[0]), times.last! + intervals.intervals.last!, from: panel.x, to: panel.maxX,
                                    spacing: metrics.tickSpacing),
                      interval: .linear(0, highest * 1.18, from: panel.maxY, to: panel.y, spacing: metrics.tickSpacing * 0.7))
    }

    func draw(on canvas: Canvas, size: PlotSize) {
        let metrics = PlotMetrics(size), layout = layout(size)
        canvas.fill(Rect(x: 0, y: 0, width: canvas.width, height: canvas.height), .white)
        canvas.header(title, subtitle, metrics: metrics)
        canvas.grid(layout.panel, x: layout.time, y: layout.interval, metrics: metrics)
        canvas.clipped(to: layout.panel) {
            if let nominal = intervals.nominalInterval {
                let y = layout.interval.pixel(nominal * 1000)
                canvas.stroke([Point(x: layout.panel.x, y: y), Point(x: layout.panel.maxX, y: y)], Self.nominal,
                              width: metrics.lineWidth, dash: [7 * metrics.scale, 5 * metrics.scale])
            }
            canvas.stroke(steps(layout), Self.curve, width: metrics.curveWidth)
            for index in intervals.gaps {
                let middle = (intervals.times[index] + intervals.times[index + 1]) / 2
                let point = Point(x: layout.time.pixel(middle), y: layout.interval.pixel(intervals.intervals[index] * 1000))
                canvas.dot(at: point, radius: 4.5 * metrics.scale, .alert, outline: .white)
                if intervals.gaps.count <= Self.labelledGaps {
                    canvas.text(milliseconds(intervals.intervals[index]), at: Point(x: point.x, y: point.y - 2 * metrics.gap),
                                size: metrics.noteSize, .alert, bold: true, align: .centre, vertical: .bottom)
                }
            }
        }
        canvas.axes(layout.panel, x: layout.time, y: layout.interval, xTitle: "presentation time (s)",
                    yTitle: "interval before the frame (ms)", metrics: metrics)
        legend.draw(on: canvas, in: layout.panel, corner: .topRight, metrics: metrics)
    }

    /// The interval before each frame as a horizontal step from the previous frame to it;
    /// runs of equal steps become one line.
    func steps(_ layout: Layout) -> [Point] {
        var points: [Point] = []
        for (index, interval) in intervals.intervals.enumerated() {
            let y = layout.interval.pixel(interval * 1000).rounded()
            let start = Point(x: layout.time.pixel(intervals.times[index]), y: y)
            let end = Point(x: layout.time.pixel(intervals.times[index + 1]), y: y)
            if let last = points.last, last.y == y {
                points[points.count - 1] = end
            } else {
                points += [start, end]
            }
        }
        return points
    }

    /// The stream, frame count and span, median interval, frame-rate kind and gaps.
    var subtitle: String {
        let stream = intervals.stream
        var parts = ["stream \(stream.index) (\(stream.codec.name)"
                     + (stream.video.map { ", \($0.width)x\($0.height))" } ?? ")")]
        parts.append("\(intervals.times.count) frames over \(trimmedNumber(intervals.times.last! - intervals.times[0], places: 3)) s")
        parts.append("median \(milliseconds(intervals.intervals.sorted()[intervals.intervals.count / 2]))")
        parts.append(intervals.isVariableFrameRate ? "variable frame rate" : "constant frame rate")
        parts.append(intervals.gaps.count == 1 ? "1 gap" : "\(intervals.gaps.count) gaps")
        return parts.joined(separator: "  ·  ")
    }

    private var legend: Legend {
        var legend = Legend()
        legend.add(.line(Self.curve, dash: []), "interval before each frame")
        if let nominal = intervals.nominalInterval, let rate = intervals.stream.video?.nominalFrameRate {
            legend.add(.line(Self.nominal, dash: [4, 3]),
                       "nominal \(milliseconds(nominal)) (\(trimmedNumber(rate.doubleValue, places: 3)) fps)")
        }
        legend.add(.dot(.alert), "gap: over \(trimmedNumber(FrameIntervals.gapFactor, places: 1))× its neighbours (\(intervals.gaps.count))")
        return legend
    }

    private func milliseconds(_ seconds: Double) -> String { trimmedNumber(seconds * 1000, places: 2) + " ms" }
}
