extension Canvas {
    /// The title in bold and a one-line subtitle, above the plot area; a line too long for
    /// the canvas is set smaller until it fits.
    func header(_ title: String, _ subtitle: String, metrics: PlotMetrics) {
        let left = metrics.plotArea(width: width, height: height).x, room = width - left - metrics.gap
        func fitting(_ text: String, _ size: Double, bold: Bool) -> Double {
            var size = size, width = textWidth(text, size: size, bold: bold)
            while width > room && size > 4 {    // hinted glyphs do not shrink in proportion
                size *= 0.98 * room / width
                width = textWidth(text, size: size, bold: bold)
            }
            return size
        }
        text(title, at: Point(x: left, y: 34 * metrics.scale), size: fitting(title, metrics.titleSize, bold: true), bold: true)
        text(subtitle, at: Point(x: left, y: 60 * metrics.scale), size: fitting(subtitle, metrics.subtitleSize, bold: false),
             .mutedInk)
    }

    /// Grid lines at the ticks of both axes, across `panel` (drawn over fills, under curves).
    func grid(_ panel: Rect, x: Axis, y: Axis, metrics: PlotMetrics) {
        let offset = metrics.gridWidth.truncatingRemainder(dividingBy: 2) / 2
        for tick in x.ticks {
            let position = x.pixel(tick).rounded() + offset
            stroke([Point(x: position, y: panel.y), Point(x: position, y: panel.maxY)], .grid, width: metrics.gridWidth)
        }
        for tick in y.ticks {
            let position = y.pixel(tick).rounded() + offset
            stroke([Point(x: panel.x, y: position), Point(x: panel.maxX, y: position)], .grid, width: metrics.gridWidth)
        }
    }

    /// The panel's frame, tick marks and labels of both axes, and their titles; the x axis is
    /// labelled only with an `xTitle` (panels stacked above another share its labels).
    func axes(_ panel: Rect, x: Axis, y: Axis, xTitle: String?, yTitle: String, metrics: PlotMetrics) {
        strokeRect(panel, .frame, width: metrics.gridWidth)
        let tick = 5 * metrics.scale
        for value in y.ticks {
            let position = y.pixel(value)
            stroke([Point(x: panel.x - tick, y: position), Point(x: panel.x, y: position)], .frame, width: metrics.gridWidth)
            text(y.label(value), at: Point(x: panel.x - tick - metrics.gap / 2, y: position), size: metrics.tickSize,
                 .mutedInk, align: .end, vertical: .middle)
        }
        let labelWidth = y.ticks.map { textWidth(y.label($0), size: metrics.tickSize) }.max() ?? 0
        text(yTitle, at: Point(x: panel.x - tick - labelWidth - 2.2 * metrics.gap, y: panel.midY), size: metrics.axisTitleSize,
             align: .centre, vertical: .bottom, rotated: true)
        guard let xTitle else { return }
        for value in x.ticks {
            let position = x.pixel(value)
            stroke([Point(x: position, y: panel.maxY), Point(x: position, y: panel.maxY + tick)], .frame, width: metrics.gridWidth)
            text(x.label(value), at: Point(x: position, y: panel.maxY + tick + metrics.gap / 2), size: metrics.tickSize,
                 .mutedInk, align: .centre, vertical: .top)
        }
        text(xTitle, at: Point(x: panel.midX, y: panel.maxY + tick + metrics.tickSize + 3.5 * metrics.gap),
             size: metrics.axisTitleSize, align: .centre, vertical: .top)
    }
}
