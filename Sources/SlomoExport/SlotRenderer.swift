import SlomoCore
import SlomoMedia

/// The render stage of a CFR export, on its own thread: for every output slot, picks, blends
/// or interpolates source pictures, then scales, pads or crops them, tone-maps or converts them
/// to the encoder's pixel format (one libavfilter graph per clip), and hands them on with
/// `pts` = slot number in the time base 1/fps.
struct SlotRenderer {
    struct Clip {
        let schedule: SlotSchedule
        /// The source's video, for tone-mapping.
        let video: VideoInfo
        /// Where the clip's pictures go in the output frame.
        let picture: OutputPicture
    }

    let clips: [Clip]
    let encoding: VideoEncoding
    let frameRate: Rational
    let input: BoundedQueue<SourceItem>
    let output: BoundedQueue<Frame>

    func run() throws {
        for clip in clips {
            var renderer = ClipRenderer(clip: clip, owner: self)
            try renderer.render()
        }
        output.finish()
    }

    /// The filter chain from a source picture to an encoder picture.
    func filterDescription(sourceWidth: Int, sourceHeight: Int, video: VideoInfo, picture: OutputPicture) -> String {
        var steps: [String] = []
        let geometry = picture.filter(sourceWidth: sourceWidth, sourceHeight: sourceHeight)
        if !geometry.isEmpty { steps.append(geometry) }
        if encoding.toneMaps && VideoEncoding.isHDR(video) { steps.append(encoding.toneMapFilter(source: video)) }
        steps.append("format=\(encoding.pixelFormat.name)")
        steps.append("setsar=1")
        return steps.joined(separator: ",")
    }
}

/// Renders one clip's slots.
private struct ClipRenderer {
    let clip: SlotRenderer.Clip
    let owner: SlotRenderer
    private var window: [(time: MediaTime, frame: Frame)] = []
    private var clipEnded = false
    private var graph: FilterGraph?
    private var interpolator: Interpolator?

    init(clip: SlotRenderer.Clip, owner: SlotRenderer) {
        self.clip = clip
        self.owner = owner
    }

    mutating func render() throws {
        let schedule = clip.schedule
        for slot in schedule.slots {
            let time = schedule.sourceTime(ofSlot: slot)
            try fill(past: time)
            guard !window.isEmpty else {
                throw ExportError(.invalidPlan, "no decodable video pictures for output frame \(slot) (source \(time.doubleSeconds) s)")
            }
            let choice = schedule.choice(ofSlot: slot)
            var picture: Frame
            if choice == .interpolate {
                picture = try interpolated(slot: slot, time: time) ?? blended(at: time)
            } else {
                interpolator = nil
                picture = choice == .blend ? try blended(at: time) : nearest(at: time).clone()
            }
            picture.pts = Int64(slot)
            picture.timeBase = owner.frameRate.reciprocal
            try send(picture)
            // Frames before the one shown now are never needed again.
            if let shown = window.lastIndex(where: { $0.time <= time }), shown > 0 { window.removeFirst(shown) }
        }
        if let graph {
            for frame in try graph.process(nil) { try deliver(frame) }
        }
        while !clipEnded { try take() }
    }

    /// Pops source items until the window holds a picture after `time` or the clip has ended.
    private mutating func fill(past time: MediaTime) throws {
        while !clipEnded && (window.last.map { $0.time <= time } ?? true) { try take() }
    }

    private mutating func take() throws {
        guard let item = try owner.input.pop() else {
            clipEnded = true
            return
        }
        switch item {
        case .endOfClip:
            clipEnded = true
            try interpolator?.finish()
        case .frame(let frame, let time):
            if let last = window.last, time <= last.time { return }    // duplicate or out of order: keep the first
            window.append((time, frame))
            try interpolator?.feed(frame, outputTime: clip.schedule.map.outputTime(at: time))
        }
    }

    /// The picture on screen at `time`: the last one that starts at or before it.
    private func nearest(at time: MediaTime) -> Frame {
        (window.last { $0.time <= time } ?? window[0]).frame
    }

    /// The two pictures around `time`, mixed by how close each is.
    private func blended(at time: MediaTime) throws -> Frame {
        guard let index = window.lastIndex(where: { $0.time <= time }), index + 1 < window.count else {
            return nearest(at: time).clone()
        }
        let (a, b) = (window[index], window[index + 1])
        let weight = (time - a.time).doubleSeconds / (b.time - a.time).doubleSeconds
        if weight < 1.0 / 512 || !a.frame.isBlendable { return a.frame.clone() }
        if weight > 1 - 1.0 / 512 { return b.frame.clone() }
        return try a.frame.blended(with: b.frame, weight: weight)
    }

    /// A motion-interpolated picture for `slot` from minterpolate, fed with the source pictures
    /// at their output times; nil when it did not produce that slot (edges of the clip).
    private mutating func interpolated(slot: Int, time: MediaTime) throws -> Frame? {
        if interpolator == nil {
            let first = window[0].frame
            interpolator = try Interpolator(width: first.width, height: first.height, format: first.pixelFormat,
                                            frameRate: owner.frameRate)
            for entry in window {
                try interpolator!.feed(entry.frame, outputTime: clip.schedule.map.outputTime(at: entry.time))
            }
        }
        let horizon = clip.schedule.outputTime(ofSlot: slot) + MediaTime(seconds: Rational(1, 2))
        while interpolator!.frame(forSlot: slot) == nil && !clipEnded
                && (window.last.map { clip.schedule.map.outputTime(at: $0.time) < horizon } ?? true) {
            try take()
        }
        return interpolator!.take(slot: slot)
    }

    private mutating func send(_ picture: Frame) throws {
        if graph == nil {
            let description = owner.filterDescription(sourceWidth: picture.width, sourceHeight: picture.height, video: clip.video,
                                                      picture: clip.picture)
            graph = try FilterGraph(video: .init(width: picture.width, height: picture.height, pixelFormat: picture.pixelFormat,
                                                 timeBase: owner.frameRate.reciprocal,
                                                 sampleAspectRatio: clip.video.sampleAspectRatio ?? Rational(1),
                                                 frameRate: owner.frameRate),
                                    description: description)
        }
        for frame in try graph!.process(picture) { try deliver(frame) }
    }

    private func deliver(_ frame: Frame) throws {
        frame.timeBase = owner.frameRate.reciprocal
        frame.color = owner.encoding.color
        try owner.output.push(frame)
    }
}

/// libavfilter's `minterpolate` (motion-compensated interpolation) over source pictures
/// placed at their output times; its output pictures fall on the 1/fps grid, so their
/// timestamps are slot numbers. Slow: hundreds of times slower than blending.
private final class Interpolator {
    private let graph: FilterGraph
    private let inputTimeBase: Rational
    private var ready: [Int: Frame] = [:]
    private var lastTicks: Int64?

    init(width: Int, height: Int, format: PixelFormat, frameRate: Rational) throws {
        inputTimeBase = Rational(1, frameRate.numerator * 1000)
        graph = try FilterGraph(video: .init(width: width, height: height, pixelFormat: format, timeBase: inputTimeBase),
                                description: "minterpolate=fps=\(frameRate.numerator)/\(frameRate.denominator):mi_mode=mci:mc_mode=aobmc:me_mode=bidir:vsbmc=1:scd=none")
    }

    func feed(_ frame: Frame, outputTime: MediaTime) throws {
        let ticks = try outputTime.ticks(in: inputTimeBase, rounding: .nearest)
        if let lastTicks, ticks <= lastTicks { return }
        lastTicks = ticks
        let copy = frame.clone()
        copy.pts = ticks
        copy.timeBase = inputTimeBase
        collect(try graph.process(copy))
    }

    func finish() throws { collect(try graph.process(nil)) }

    func frame(forSlot slot: Int) -> Frame? { ready[slot] }

    func take(slot: Int) -> Frame? {
        for key in ready.keys where key < slot { ready[key] = nil }
        return ready.removeValue(forKey: slot)
    }

    private func collect(_ frames: [Frame]) {
        for frame in frames {
            guard let time = frame.presentationTime,
                  let slot = try? time.ticks(in: graph.outputTimeBase, rounding: .nearest) else { continue }
            ready[Int(slot)] = frame
        }
    }
}
