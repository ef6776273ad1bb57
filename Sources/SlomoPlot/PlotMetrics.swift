/// Sizes of a plot's text, lines and margins, grown and shrunk with the picture (the numbers
/// are for 1200x700) but kept large enough to read on the smallest plot.
struct PlotMetrics {
    let scale: Double

    init(_ size: PlotSize) {
        scale = max(0.75, min(Double(size.width) / 1200, Double(size.height) / 700))
    }

    var titleSize: Double { 20 * scale }
    var subtitleSize: Double { 13.5 * scale }
    var axisTitleSize: Double { 13.5 * scale }
    var tickSize: Double { 12 * scale }
    var noteSize: Double { 12 * scale }

    var curveWidth: Double { 2.5 * scale }
    var lineWidth: Double { 1.5 * scale }
    var gridWidth: Double { max(1, scale.rounded(.down)) }
    /// Free space between two things that should not touch.
    var gap: Double { 6 * scale }
    /// The space ticks of a linear axis aim for.
    var tickSpacing: Double { 90 * scale }

    /// The area left for panels inside a canvas, after the header above, tick labels and axis
    /// titles to the left and below.
    func plotArea(width: Double, height: Double) -> Rect {
        Rect(x0: 88 * scale, y0: 84 * scale, x1: width - 32 * scale, y1: height - 62 * scale)
    }
}
