import SlomoCore

extension TimeMapPlot {
    /// The most sections the legend names one by one.
    static let legendSections = 8

    func draw(on canvas: Canvas, size: PlotSize) {
        let metrics = PlotMetrics(size), layout = layout(size)
        canvas.fill(Rect(x: 0, y: 0, width: canvas.width, height: canvas.height), .white)
        canvas.header(title, subtitle, metrics: metrics)
        let numbers = sectionNumbers
        for panel in [layout.mapPanel, layout.ratePanel] {
            for (segment, number) in zip(plan.segments, numbers) {
                guard let number else { continue }
                let left = layout.time.pixel(time(clip: segment.clip, source: segment.sourceStart.doubleSeconds)).rounded()
                let right = layout.time.pixel(time(clip: segment.clip, source: segment.sourceEnd.doubleSeconds)).rounded()
                canvas.fill(Rect(x0: left, y0: panel.y, x1: right, y1: panel.maxY),
                            Self.fill(section: number, ramp: segment.rampFrom != nil))
            }
        }
        canvas.grid(layout.mapPanel, x: layout.time, y: layout.output, metrics: metrics)
        canvas.grid(layout.ratePanel, x: layout.time, y: layout.rate, metrics: metrics)
        drawClipBoundaries(on: canvas, layout, metrics)
        drawCurves(on: canvas, layout, metrics)
        drawFrameRates(on: canvas, layout, metrics)
        drawHolds(on: canvas, layout, metrics)
        let timeTitle = plan.clips.count > 1 ? "edit time (s), clips end to end" : "source time (s)"
        canvas.axes(layout.mapPanel, x: layout.time, y: layout.output, xTitle: nil, yTitle: "output time (s)", metrics: metrics)
        canvas.axes(layout.ratePanel, x: layout.time, y: layout.rate, xTitle: timeTitle, yTitle: "rate", metrics: metrics)
        legend(numbers).draw(on: canvas, in: layout.mapPanel, corner: .topLeft, metrics: metrics)
    }

    /// Durations, source frame rate and export mode.
    var subtitle: String {
        let source = plan.clips.reduce(0.0) { $0 + $1.sourceEnd.doubleSeconds - $1.sourceStart.doubleSeconds }
        var parts = ["\(trimmedNumber(source, places: 3)) s of source → \(trimmedNumber(plan.outputDuration.doubleSeconds, places: 3)) s of output"]
        let frameRates = Set(plan.clips.compactMap { $0.frameRate.flatMap { Rational(frameRate: $0) } })
        if frameRates.count == 1, let rate = frameRates.first {
            parts.append("\(trimmedNumber(rate.doubleValue, places: 3)) fps source")
        }
        if let cfr = plan.cfrFrameRate.flatMap({ Rational(frameRate: $0) }) {
            parts.append("exported at \(trimmedNumber(cfr.doubleValue, places: 3)) fps CFR"
                         + (plan.outputFrames.map { " (\($0) frames)" } ?? ""))
        } else {
            parts.append("passthrough (source frames retimed)")
        }
        return parts.joined(separator: "  ·  ")
    }

    /// Points along a segment: its time-axis value, output time and rate, exact at both ends
    /// and sampled in between for a ramp (1/rate linear in source time, output its integral;
    /// an eased ramp's own points).
    func samples(_ segment: Plan.Segment) -> [(time: Double, output: Double, rate: Double)] {
        if segment.hold != nil {
            // Output passes, source does not: a vertical step, with no rate of its own.
            let at = time(clip: segment.clip, source: segment.sourceStart.doubleSeconds)
            return [(at, segment.outputStart.doubleSeconds, .nan), (at, segment.outputEnd.doubleSeconds, .nan)]
        }
        if segment.reversed == true {
            // Backwards: the section's end plays first, output time falls as source time rises.
            let speed = abs(segment.rate)
            return [(time(clip: segment.clip, source: segment.sourceStart.doubleSeconds), segment.outputEnd.doubleSeconds, speed),
                    (time(clip: segment.clip, source: segment.sourceEnd.doubleSeconds), segment.outputStart.doubleSeconds, speed)]
        }
        if let curve = segment.curve {
            return curve.map { (time(clip: segment.clip, source: $0.source), $0.output, $0.rate) }
        }
        let length = segment.sourceEnd.doubleSeconds - segment.sourceStart.doubleSeconds
        let k0 = 1 / (segment.rampFrom ?? segment.rate), k1 = 1 / (segment.rampTo ?? segment.rate)
        let steps = segment.rampFrom == nil ? 1 : 32
        return (0...steps).map { step in
            let x = length * Double(step) / Double(steps)
            let output = segment.outputStart.doubleSeconds + k0 * x + (k1 - k0) * x * x / (2 * length)
            return (time(clip: segment.clip, source: segment.sourceStart.doubleSeconds + x), output, 1 / (k0 + (k1 - k0) * x / length))
        }
    }

    /// The curve's pieces: a reversed segment is entered and left by cuts, so it stands alone.
    var curveRuns: [[(time: Double, output: Double, rate: Double)]] {
        var runs: [[(time: Double, output: Double, rate: Double)]] = []
        var previousReversed = true
        for segment in plan.segments {
            let reversed = segment.reversed == true
            if reversed || previousReversed { runs.append([]) }
            runs[runs.count - 1] += samples(segment)
            previousReversed = reversed
        }
        return runs
    }

    private func drawCurves(on canvas: Canvas, _ layout: Layout, _ metrics: PlotMetrics) {
        let runs = curveRuns
        let (lower, upper) = timeRange
        let dash = [7 * metrics.scale, 5 * metrics.scale]
        canvas.clipped(to: layout.mapPanel) {
            let start = layout.output.lower
            canvas.stroke([Point(x: layout.time.pixel(lower), y: layout.output.pixel(start)),
                           Point(x: layout.time.pixel(upper), y: layout.output.pixel(start + upper - lower))],
                          .mutedInk, width: metrics.lineWidth, dash: dash)
            for points in runs {
                canvas.stroke(points.map { Point(x: layout.time.pixel($0.time), y: layout.output.pixel($0.output)) },
                              .ink, width: metrics.curveWidth)
            }
        }
        canvas.clipped(to: layout.ratePanel) {
            canvas.stroke([Point(x: layout.ratePanel.x, y: layout.rate.pixel(1)), Point(x: layout.ratePanel.maxX, y: layout.rate.pixel(1))],
                          .mutedInk, width: metrics.lineWidth, dash: dash)
            for points in runs {
                canvas.stroke(points.filter { !$0.rate.isNaN }.map { Point(x: layout.time.pixel($0.time), y: layout.rate.pixel($0.rate)) },
                              .ink, width: metrics.curveWidth)
            }
        }
    }

    /// A dashed line where each clip after the first starts, labelled with its number.
    private func drawClipBoundaries(on canvas: Canvas, _ layout: Layout, _ metrics: PlotMetrics) {
        for clip in plan.clips.indices.dropFirst() {
            let x = layout.time.pixel(time(clip: clip, source: plan.clips[clip].sourceStart.doubleSeconds)).rounded() + 0.5
            for panel in [layout.mapPanel, layout.ratePanel] {
                canvas.stroke([Point(x: x, y: panel.y), Point(x: x, y: panel.maxY)], .frame, width: metrics.lineWidth,
                              dash: [3 * metrics.scale, 3 * metrics.scale])
            }
            canvas.text("clip \(clip + 1)", at: Point(x: x + metrics.gap / 2, y: layout.mapPanel.maxY - metrics.gap),
                        size: metrics.noteSize, .mutedInk, vertical: .bottom)
        }
    }

    /// Each segment's effective frame rate over its stretch of the rate curve (below the curve
    /// where there is no room above), where the segment is wide enough to hold it.
    private func drawFrameRates(on canvas: Canvas, _ layout: Layout, _ metrics: PlotMetrics) {
        let panel = layout.ratePanel, size = metrics.noteSize
        for segment in plan.segments {
            guard let fps = segment.effectiveFrameRate else { continue }
            let text = (segment.rampFrom == nil ? "" : "≈") + trimmedNumber(fps, places: 2) + " fps"
            let left = layout.time.pixel(time(clip: segment.clip, source: segment.sourceStart.doubleSeconds))
            let right = layout.time.pixel(time(clip: segment.clip, source: segment.sourceEnd.doubleSeconds))
            guard canvas.textWidth(text, size: size, bold: true) + 2 * metrics.gap <= right - left else { continue }
            let samples = samples(segment)
            let y = layout.rate.pixel(samples[samples.count / 2].rate)
            let above = y - metrics.curveWidth - metrics.gap
            let point = above - size > panel.y ? Point(x: (left + right) / 2, y: above)
                                               : Point(x: (left + right) / 2, y: y + metrics.curveWidth + metrics.gap)
            canvas.text(text, at: point, size: size, bold: true, align: .centre, vertical: point.y < y ? .bottom : .top)
        }
    }

    /// Each freeze frame: a dashed line at its source time across the rate panel, and its length
    /// beside its rise in the map panel.
    private func drawHolds(on canvas: Canvas, _ layout: Layout, _ metrics: PlotMetrics) {
        for segment in plan.segments where segment.hold != nil {
            let x = layout.time.pixel(time(clip: segment.clip, source: segment.sourceStart.doubleSeconds)).rounded() + 0.5
            canvas.stroke([Point(x: x, y: layout.ratePanel.y), Point(x: x, y: layout.ratePanel.maxY)], .ink,
                          width: metrics.lineWidth, dash: [2 * metrics.scale, 2 * metrics.scale])
            let length = segment.outputEnd.doubleSeconds - segment.outputStart.doubleSeconds
            let middle = layout.output.pixel((segment.outputStart.doubleSeconds + segment.outputEnd.doubleSeconds) / 2)
            canvas.text("hold \(trimmedNumber(length, places: 3)) s", at: Point(x: x + metrics.gap, y: middle),
                        size: metrics.noteSize, bold: true, align: .start, vertical: .middle)
        }
    }

    /// The key: the curves, then each section's range, rate and effective frame rate.
    private func legend(_ numbers: [Int?]) -> Legend {
        var legend = Legend()
        legend.add(.line(.ink, dash: []), "output time above, rate below")
        legend.add(.line(.mutedInk, dash: [4, 3]), "rate 1 (unchanged)")
        let count = Set(numbers.compactMap { $0 }).count
        for number in 0..<min(count, Self.legendSections) {
            let segments = zip(plan.segments, numbers).filter { $0.1 == number }.map(\.0)
            let steady = segments.first { $0.rampFrom == nil } ?? segments[0]
            let hasRamp = segments.contains { $0.rampFrom != nil }
            var text = plan.clips.count > 1 ? "clip \(steady.clip + 1), source " : ""
            text += "\(trimmedNumber(segments.first!.sourceStart.doubleSeconds, places: 3))–\(trimmedNumber(segments.last!.sourceEnd.doubleSeconds, places: 3)) s"
            text += " at \(steady.rateText)×"
            if let fps = steady.effectiveFrameRate { text += " → \(trimmedNumber(fps, places: 2)) fps" }
            if hasRamp { text += ", ramps lighter" }
            legend.add(.fill(Self.fill(section: number, ramp: false), hasRamp ? Self.fill(section: number, ramp: true) : nil), text)
        }
        if count > Self.legendSections { legend.add(.fill(.grid, nil), "and \(count - Self.legendSections) more sections") }
        if plan.segments.contains(where: { $0.hold != nil }) {
            legend.add(.line(.ink, dash: [2, 2]), "freeze frame: the picture holds while output time rises")
        }
        if plan.segments.contains(where: { $0.reversed == true }) {
            legend.add(.line(.ink, dash: []), "reversed: output time falls as source time rises (rate below: its speed)")
        }
        return legend
    }
}
