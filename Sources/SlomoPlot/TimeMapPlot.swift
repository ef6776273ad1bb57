import SlomoCore

/// A picture of a plan's time map, for `slomo plan --plot`: output time against source time
/// above, the rate (logarithmic) below, on one time axis. Each section's source range is
/// shaded in its own colour in both panels, its ramps in a lighter shade of it; the effective
/// frame rate is written over each segment of the rate curve; a dashed line shows rate 1.
/// A freeze frame rises straight up in output time at its source time, labelled with its length;
/// a reversed section falls from its output end to its start, cut off from its neighbours.
/// A composition of several clips is drawn on its edit timeline, the clips end to end.
///
/// Make the plan of a `CompositionMap` with `Plan(map)`; draw it with `write(to:)`.
public struct TimeMapPlot: Sendable {
    /// What is drawn.
    public let plan: Plan
    /// The bold line at the top.
    public let title: String

    /// A plot of `plan`, titled `Time map of NAME` unless a `title` is given.
    public init(_ plan: Plan, title: String? = nil) {
        self.plan = plan
        let names = plan.clips.map { fileName($0.source) }
        self.title = title ?? (names.count == 1 ? "Time map of \(names[0])" : "Time map of \(names.count) clips")
    }

    /// Draws the plot into `file` (see `PlotFile` for formats, sizes and overwriting).
    public func write(to file: PlotFile) throws(PlotError) {
        try file.write { draw(on: $0, size: file.size) }
    }

    /// The panels and axes of the plot at `size`.
    struct Layout {
        /// Output time against time.
        let mapPanel: Rect
        /// Rate against time, below.
        let ratePanel: Rect
        /// The horizontal axis both panels share: source seconds (edit seconds for several clips).
        let time: Axis
        let output: Axis
        let rate: Axis
    }

    func layout(_ size: PlotSize) -> Layout {
        let metrics = PlotMetrics(size)
        let area = metrics.plotArea(width: Double(size.width), height: Double(size.height))
        let panelGap = 3 * metrics.gap
        let mapHeight = ((area.height - panelGap) * 0.68).rounded()
        let mapPanel = Rect(x: area.x, y: area.y, width: area.width, height: mapHeight)
        let ratePanel = Rect(x0: area.x, y0: mapPanel.maxY + panelGap, x1: area.maxX, y1: area.maxY)
        let rates: [Double] = plan.segments.filter { $0.hold == nil }.flatMap { [abs($0.rate), $0.rampFrom ?? 1, $0.rampTo ?? 1] } + [1]
        let spacing = metrics.tickSpacing
        return Layout(
            mapPanel: mapPanel, ratePanel: ratePanel,
            time: .linear(timeRange.lower, timeRange.upper, from: area.x, to: area.maxX, spacing: spacing),
            output: .linear(plan.segments.first?.outputStart.doubleSeconds ?? 0, plan.outputDuration.doubleSeconds, from: mapPanel.maxY, to: mapPanel.y,
                            spacing: spacing * 0.8),
            rate: .rates(rates.min()! / 1.6, rates.max()! * 1.6, from: ratePanel.maxY, to: ratePanel.y,
                         spacing: 2.2 * metrics.tickSize))
    }

    /// The colour that shades the `index`th section (counted over all clips in order), lighter
    /// for its ramps.
    static func fill(section index: Int, ramp: Bool) -> PlotColour {
        PlotColour.sections[index % PlotColour.sections.count].tint(ramp ? 0.8 : 0.55)
    }

    /// The value on the time axis of `source` seconds of clip `clip`: the source time itself for
    /// one clip, the time on the edit timeline (clips end to end) for several.
    func time(clip: Int, source: Double) -> Double {
        guard plan.clips.count > 1 else { return source }
        let before = plan.clips[..<clip].reduce(0.0) { $0 + $1.sourceEnd.doubleSeconds - $1.sourceStart.doubleSeconds }
        return before + source - plan.clips[clip].sourceStart.doubleSeconds
    }

    /// The range of the time axis.
    var timeRange: (lower: Double, upper: Double) {
        guard let last = plan.clips.indices.last else { return (0, 1) }
        return (time(clip: 0, source: plan.clips[0].sourceStart.doubleSeconds), time(clip: last, source: plan.clips[last].sourceEnd.doubleSeconds))
    }

    /// The running number of each segment's section over all clips (nil for rate-1 stretches).
    var sectionNumbers: [Int?] {
        var numbers: [[Int]: Int] = [:]
        return plan.segments.map { segment in
            guard let section = segment.section else { return nil }
            let key = [segment.clip, section]
            if let known = numbers[key] { return known }
            numbers[key] = numbers.count
            return numbers[key]
        }
    }
}
