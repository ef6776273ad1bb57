/// The key of a plot: a small sample of each line, fill or marker with what it means, in a
/// framed box in a corner of a panel.
struct Legend {
    /// What an entry shows beside its text.
    enum Sample {
        case line(PlotColour, dash: [Double])
        /// A fill; with a second colour, split in two (a section and its ramps).
        case fill(PlotColour, PlotColour?)
        case dot(PlotColour)
    }

    /// Which corner of the panel the box sits in.
    enum Corner { case topLeft, topRight }

    var entries: [(sample: Sample, text: String)] = []

    mutating func add(_ sample: Sample, _ text: String) { entries.append((sample, text)) }

    /// Draws the box inside `panel` at `corner`.
    func draw(on canvas: Canvas, in panel: Rect, corner: Corner, metrics: PlotMetrics) {
        guard !entries.isEmpty else { return }
        let size = metrics.noteSize, gap = metrics.gap, sampleWidth = 26 * metrics.scale
        let lineHeight = size * 1.55
        let textWidth = entries.map { canvas.textWidth($0.text, size: size) }.max()!
        let boxWidth = 2 * gap + sampleWidth + gap + textWidth + gap
        let boxHeight = lineHeight * Double(entries.count) + gap
        let left = corner == .topLeft ? panel.x + 2 * gap : panel.maxX - 2 * gap - boxWidth
        let box = Rect(x: left, y: panel.y + 2 * gap, width: boxWidth, height: boxHeight)
        canvas.fill(box, .white)
        canvas.strokeRect(box, .frame, width: metrics.gridWidth)
        for (index, entry) in entries.enumerated() {
            let middle = box.y + gap / 2 + lineHeight * (Double(index) + 0.5)
            let sample = Rect(x: box.x + 2 * gap, y: middle - size * 0.45, width: sampleWidth, height: size * 0.9)
            switch entry.sample {
            case .line(let colour, let dash):
                canvas.stroke([Point(x: sample.x, y: middle), Point(x: sample.maxX, y: middle)], colour,
                              width: metrics.curveWidth, dash: dash)
            case .fill(let colour, let second):
                canvas.fill(sample, colour)
                if let second { canvas.fill(Rect(x: sample.midX, y: sample.y, width: sample.width / 2, height: sample.height), second) }
            case .dot(let colour):
                canvas.dot(at: Point(x: sample.midX, y: middle), radius: size * 0.35, colour, outline: .white)
            }
            canvas.text(entry.text, at: Point(x: sample.maxX + gap, y: middle), size: size, vertical: .middle)
        }
    }
}
