import SlomoConcurrency
import SlomoComposition
import SlomoCore
import SlomoMedia

/// The render stage of a CFR export, on its own thread: for every output slot, picks, blends
/// or interpolates (optical flow, `FlowInterpolator`) source pictures, or, with a shutter,
/// mixes in light those its exposure sees (`ExposureMixer`), then scales, pads or crops them, tone-maps or converts them to the encoder's pixel format (one libavfilter graph
/// per clip), and hands them on with `pts` = slot number in the time base 1/fps.
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
    /// The flow preset of `interpolate` slots.
    let interpolation: InterpolationPreset
    /// Shutter emulation (the schedules carry its exposure).
    let shutter: Shutter
    let input: PipelineQueue<SourceItem>
    let output: PipelineQueue<Frame>
    /// Where fallbacks are reported (a picture format the interpolator does not take).
    let warnings: ExportWarnings

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
        if encoding.toneMaps && video.isHDR { steps.append(video.toneMapToSDRFilter) }
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
    /// Optical-flow engines for `interpolate` slots (`lookahead(width:height:)` + 1), created on
    /// the first one: while the slots of one pair render on this thread, the others estimate the next
    /// pairs' flows on their own threads.
    private var engines: [FlowEngine] = []
    /// Set when the pictures cannot be interpolated (format, size): such slots blend.
    private var flowUnavailable = false
    /// Mixes exposures in light, made for the first exposure that sees two pictures.
    private var mixer: ExposureMixer?

    init(clip: SlotRenderer.Clip, owner: SlotRenderer) {
        self.clip = clip
        self.owner = owner
    }

    mutating func render() throws {
        let schedule = clip.schedule
        for slot in schedule.slots {
            let time = schedule.sourceTime(ofSlot: slot)
            let shutterCloses = owner.shutter.isInstant ? time : schedule.exposureEnd(ofSlot: slot)
            try fill(past: shutterCloses)
            guard !window.isEmpty else {
                throw ExportError(.invalidPlan, "no decodable video pictures for output frame \(slot) (source \(time.doubleSeconds) s)")
            }
            let choice = schedule.choice(ofSlot: slot)
            var picture: Frame
            if shutterCloses > time, let exposed = try exposure(from: time, to: shutterCloses, choice: choice) {
                picture = exposed
            } else {
                picture = try sample(at: time, choice: choice)
            }
            picture.pts = Int64(slot)
            picture.timeBase = owner.frameRate.reciprocal
            try send(picture)
            // Frames before the one shown now are never needed again.
            if let shown = window.lastIndex(where: { $0.time <= time }), shown > 0 { window.removeFirst(shown) }
        }
        for engine in engines { engine.wait() }
        if let graph {
            try graph.pushEndOfStream()
            try deliverFiltered(from: graph)
        }
        while !clipEnded { try take() }
    }

    /// The picture `choice` makes at source time `time`.
    private mutating func sample(at time: MediaTime, choice: FrameChoice) throws -> Frame {
        switch choice {
        case .interpolate: return try interpolated(at: time)
        case .blend: return try blended(at: time)
        default: return try nearest(at: time).clone()
        }
    }

    /// The light an open shutter collects from source time `start` to `end`: the pictures on
    /// screen in between, each weighted by its time there, mixed in light. An exposure shorter
    /// than a source picture's time on screen (a slow section) is `Shutter.samples` pictures
    /// made by `choice` at even times across it, or nil (the slot shows its own picture, without
    /// the double image two neighbours would make).
    private mutating func exposure(from start: MediaTime, to end: MediaTime, choice: FrameChoice) throws -> Frame? {
        let first = window.lastIndex { $0.time <= start } ?? 0
        var seen: [(frame: Frame, weight: Double)] = []
        for index in first..<window.count where window[index].time < end {
            let from = MediaTime.max(window[index].time, start)
            let until = index + 1 < window.count ? MediaTime.min(window[index + 1].time, end) : end
            if until > from { seen.append((window[index].frame, (until - from).doubleSeconds)) }
        }
        let onScreen = first + 1 < window.count ? window[first + 1].time - window[first].time : nil
        if seen.count < 2 || onScreen.map({ end - start < $0 }) == true {
            let samples = owner.shutter.samples
            guard samples > 1, choice != .nearest else { return nil }
            let step = (end - start).doubleSeconds / Double(samples)
            seen = try (0..<samples).map { k in
                (try sample(at: start + MediaTime.seconds(step * (Double(k) + 0.5)), choice: choice), 1.0)
            }
        }
        let picture = seen[0].frame
        if mixer.map({ $0.width != picture.width || $0.height != picture.height || $0.format != picture.pixelFormat }) ?? true {
            mixer = try ExposureMixer(width: picture.width, height: picture.height, format: picture.pixelFormat, color: picture.color)
        }
        let total = seen.reduce(0) { $0 + $1.weight }
        mixer!.start()
        for (frame, weight) in seen { try mixer!.add(frame, weight: Float(weight / total)) }
        return try mixer!.finish(like: picture)
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
        case .frame(let frame, let time):
            if let last = window.last, time <= last.time { return }    // duplicate or out of order: keep the first
            window.append((time, frame))
        }
    }

    /// The picture on screen at `time` (`PictureTiming`).
    private func nearest(at time: MediaTime) -> Frame {
        window[PictureTiming.onScreen(at: time, among: window, startingAt: \.time)!].frame
    }

    /// The two pictures around `time`, mixed by how close each is.
    private func blended(at time: MediaTime) throws -> Frame {
        guard let index = PictureTiming.onScreen(at: time, among: window, startingAt: \.time),
              window[index].time <= time, index + 1 < window.count else {
            return try nearest(at: time).clone()
        }
        let (a, b) = (window[index], window[index + 1])
        let weight = (time - a.time).doubleSeconds / (b.time - a.time).doubleSeconds
        if weight < 1.0 / 512 || !a.frame.isBlendable { return try a.frame.clone() }
        if weight > 1 - 1.0 / 512 { return try b.frame.clone() }
        return try a.frame.blended(with: b.frame, weight: weight)
    }

    /// The picture at `time` built by optical flow from the two source pictures around it. The
    /// pair's flows are estimated once and serve every slot between them. At a scene cut or a
    /// failed flow the slot shows the picture on screen (as `nearest` would); pictures the
    /// interpolator cannot take (format, size) are blended, with a warning.
    private mutating func interpolated(at time: MediaTime) throws -> Frame {
        guard let index = window.lastIndex(where: { $0.time <= time }), index + 1 < window.count else {
            return try nearest(at: time).clone()
        }
        let (a, b) = (window[index], window[index + 1])
        let weight = (time - a.time).doubleSeconds / (b.time - a.time).doubleSeconds
        if weight < 1.0 / 512 { return try a.frame.clone() }
        if weight > 1 - 1.0 / 512 { return try b.frame.clone() }
        if flowUnavailable { return try blended(at: time) }
        do throws(FlowInterpolationError) {
            if engines.isEmpty || !engines[0].takes(a.frame) {
                for engine in engines { engine.wait() }
                engines = try (0...Self.lookahead(width: a.frame.width, height: a.frame.height)).map { _ throws(FlowInterpolationError) in
                    FlowEngine(try FlowInterpolator(width: a.frame.width, height: a.frame.height, pixelFormat: a.frame.pixelFormat,
                                                    preset: owner.interpolation))
                }
            }
            let engine: FlowEngine
            if let ready = engines.first(where: { $0.pair?.a == a.time && $0.pair?.b == b.time }) {
                engine = ready
                try engine.finish()
            } else {
                engine = engines.first { !$0.isBusy } ?? engines[0]
                engine.wait()
                try engine.load(a.frame, b.frame, times: (a.time, b.time))
            }
            try prefetch(after: index, besides: engine)
            if let picture = try engine.render(at: weight) { return picture }
        } catch let error where [.unsupportedFormat, .tooSmall, .libraryUnavailable].contains(error.kind) {
            flowUnavailable = true
            owner.warnings.add("interpolate: blending instead, \(error.detail)")
            return try blended(at: time)
        } catch {
            // A pair the flow engine could not handle: show the picture on screen, as at a cut.
            owner.warnings.tally("interpolate: optical flow failed (\(error.detail)); the source picture is shown as is",
                                 at: "source \(a.time.doubleSeconds) s")
        }
        // A scene cut (or a failed pair) shows the picture on screen.
        return try a.frame.clone()
    }

    /// How many pairs' flows are estimated ahead, each on its own engine and thread: as many
    /// as fit in `flowBudget`, counting 56 bytes a pixel an engine (52 MB at 720p, 116 MB at
    /// 1080p), at most 2. 720p: 2, 1080p: 1, 4K: 0. The count is generous: an engine holds
    /// ≈ 35 bytes a pixel at 10 bits, 17 at 8 (its frame copies, half-pel luma and the filter's
    /// sums, the two sharp warps).
    static func lookahead(width: Int, height: Int) -> Int {
        min(2, flowBudget / max(1, 56 * width * height))
    }

    /// Memory for the engines that estimate ahead.
    static let flowBudget = 160 << 20

    /// Starts estimating the flows of the next `lookahead` pairs after `window[index]`,
    /// `window[index + 1]` on engines other than `current`, for pairs a slot of an interpolated
    /// segment falls inside.
    private mutating func prefetch(after index: Int, besides current: FlowEngine) throws(FlowInterpolationError) {
        let schedule = clip.schedule
        for ahead in stride(from: 1, through: engines.count - 1, by: 1) {
            let first = index + ahead
            guard first < window.count else { return }
            do { try fill(past: window[first].time) } catch { return }   // a decode failure surfaces on the next slot
            guard first + 1 < window.count else { return }
            let (p, q) = (window[first], window[first + 1])
            guard schedule.choices[schedule.map.segmentIndex(containingSource: p.time)] == .interpolate,
                  schedule.hasSlot(from: p.time, to: q.time) else { return }
            if engines.contains(where: { $0.pair?.a == p.time && $0.pair?.b == q.time }) { continue }
            // An engine holding none of the pairs needed from here on.
            let needed = window[index ... first].map(\.time)
            guard let free = engines.first(where: { engine in
                engine !== current && !(engine.pair.map { needed.contains($0.a) } ?? false)
            }) else { return }
            free.wait()
            try free.start(p.frame, q.frame, times: (p.time, q.time))
        }
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
        try graph!.push(picture)
        try deliverFiltered(from: graph!)
    }

    /// Hands on every picture `graph` has ready, one at a time: each is the graph's new frame,
    /// moved to the encoder's queue.
    private func deliverFiltered(from graph: FilterGraph) throws {
        while let frame = try graph.pull() { try deliver(frame) }
    }

    private func deliver(_ frame: sending Frame) throws {
        frame.timeBase = owner.frameRate.reciprocal
        frame.color = owner.encoding.color
        try owner.output.push(frame)
    }
}

/// One optical-flow interpolator and the pair it holds or is estimating on a worker thread.
/// The render thread calls everything. The interpolator lives in a `Guarded` value: `start`
/// moves copies of the two pictures (new references to their buffers) to a `PipelineWorker`,
/// which holds the interpolator's lock while it runs `setPair`; the render thread reaches the
/// interpolator only through the same lock, after `wait`/`finish` have joined the estimate.
private final class FlowEngine {
    private let interpolator: Guarded<FlowInterpolator>
    /// The interpolator's picture size and format (read without its lock, while it estimates).
    private let width: Int, height: Int, pixelFormat: PixelFormat
    /// The source times of the pair loaded or being loaded.
    private(set) var pair: (a: MediaTime, b: MediaTime)?
    /// The estimate running on its own thread, if any; its join gives how it failed.
    private var estimate: PipelineWorker?

    init(_ interpolator: sending FlowInterpolator) {
        (width, height, pixelFormat) = (interpolator.width, interpolator.height, interpolator.pixelFormat)
        self.interpolator = Guarded(interpolator)
    }

    /// True while a started estimate has not been waited for.
    var isBusy: Bool { estimate != nil }

    /// True when pictures like `frame` fit this engine.
    func takes(_ frame: Frame) -> Bool {
        frame.width == width && frame.height == height && frame.pixelFormat == pixelFormat
    }

    /// Estimates the pair's flows now, on the calling thread.
    func load(_ a: Frame, _ b: Frame, times: (a: MediaTime, b: MediaTime)) throws(FlowInterpolationError) {
        pair = nil
        try interpolator.withLock(moving: try Self.copies(a, b)) { interpolator, pictures throws(FlowInterpolationError) in
            try interpolator.setPair(pictures.a, pictures.b)
        }
        pair = times
    }

    /// Starts estimating the pair's flows on a worker thread, which alone holds the interpolator
    /// (and copies of the two pictures) until it is joined.
    func start(_ a: Frame, _ b: Frame, times: (a: MediaTime, b: MediaTime)) throws(FlowInterpolationError) {
        let pictures = Handoff(try Self.copies(a, b))
        pair = times
        let interpolator = interpolator
        estimate = PipelineWorker("slomo flow") {
            try interpolator.withLock(moving: pictures.take()) { interpolator, pictures throws(FlowInterpolationError) in
                try interpolator.setPair(pictures.a, pictures.b)
            }
        }
    }

    /// The picture at `weight` of the way from the loaded pair's `a` to `b`; nil when the pair
    /// is a scene cut or its flow failed.
    func render(at weight: Double) throws(FlowInterpolationError) -> Frame? {
        try interpolator.withLock { interpolator throws(FlowInterpolationError) -> sending Frame? in
            interpolator.isCut ? nil : try interpolator.render(at: weight)
        }
    }

    /// Waits for a started estimate (nothing when none is running); its error is dropped.
    func wait() { _ = join() }

    /// Waits for the started estimate and throws its error.
    func finish() throws(FlowInterpolationError) {
        if let failure = join() {
            pair = nil
            throw failure
        }
    }

    /// New references to `a` and `b` (their buffers are not copied), for the interpolator to
    /// take while the window keeps its own.
    private static func copies(_ a: Frame, _ b: Frame) throws(FlowInterpolationError) -> sending (a: Frame, b: Frame) {
        do {
            return (try a.clone(), try b.clone())
        } catch {
            throw FlowInterpolationError(.engineFailure, "optical-flow interpolator: cannot reference the pair (\(error))")
        }
    }

    /// Joins the started estimate and forgets it; its error, if it failed (`setPair` throws
    /// only `FlowInterpolationError`).
    private func join() -> FlowInterpolationError? {
        defer { estimate = nil }
        return estimate?.join() as? FlowInterpolationError
    }
}
