import Foundation
import SlomoConcurrency
import SlomoCore
import SlomoMedia

/// A clip's video decoded on several decoders side by side, each taking whole runs of packets
/// that begin at a keyframe, with the pictures handed on in order. The export decodes on one
/// thread a decoder (see `SourceFrameStage.threads`), and that one thread was the critical
/// path wherever a high-rate source plays at 1x. With runs dealt in turn to one decoder a
/// core, every decoder still sees every concealed picture, and a 1x CFR export of the 720p240
/// bench clip takes 1.24–1.31 s instead of 1.35 s on 2 cores.
///
/// The reader `send`s each packet with what its decoder may skip (`.none` when a slot needs its picture), and calls
/// `startRun()` before a packet where a run may begin (`mayStartRun`); lane `k` decodes runs
/// `k`, `k + lanes`, …; a merging thread takes each run's pictures from its lane in turn and
/// pushes them to `output`, until `isPastLastSlot` says no slot needs more.
///
/// ```swift
/// let runs = try RunDecoders(demuxer: demuxer, stream: video.index, lanes: 2, threads: 1, output: queue,
///                            origin: origin, statistics: statistics) { schedule.isPastLastSlot($0) }
/// defer { runs.cancel() }
/// while let packet = … { if cut { try runs.startRun() }; guard try runs.send(packet, skipping: .none) else { break } }
/// let damage = try runs.finish()
/// ```
final class RunDecoders {
    /// What the reader tells a lane.
    private enum Command {
        case packet(Packet, skipping: Decoder.PictureSkipping)
        case endOfRun
    }

    /// What a lane hands the merger.
    private enum Output {
        case frame(Frame, time: MediaTime)
        case endOfRun
    }

    /// One decoder on its own thread, with its queues. The lane's thread holds the decoder's
    /// lock while it decodes; `finish()` takes the decoder out once that thread has ended.
    private final class Lane: Sendable {
        let commands = PipelineQueue<Command>(capacity: 1024, bytes: RunDecoders.queuedPacketBytes) {
            if case .packet(let packet, _) = $0 { packet.size } else { 0 }
        }
        let pictures: PipelineQueue<Output>
        let decoder: Guarded<Decoder?>
        let worker: PipelineWorker

        init(decoder: sending Decoder, pictures capacity: Int) {
            self.decoder = Guarded(decoder)
            pictures = PipelineQueue<Output>(capacity: capacity)
            worker = PipelineWorker("slomo decode run")
        }
    }

    /// Packets of a run before the next keyframe may begin another.
    static let runLength = 32
    /// Lanes for pictures of `width`×`height` in `pixelFormat`: one a core, up to four, as many
    /// as fit in `laneBudget`. Each lane beyond the first holds about 14 more pictures (its
    /// decoder's references, and a frame pool that grows to cover every picture of its still
    /// held downstream: 360 → 419 MB for a second lane at 1080p): 4 lanes at 720p, 2 at 1080p,
    /// 1 at 4K.
    static func laneCount(width: Int, height: Int, pixelFormat: String) -> Int {
        let perLane = 14 * PictureBudget.pictureBytes(width: width, height: height, pixelFormat: pixelFormat)
        return max(1, min(4, ProcessInfo.processInfo.activeProcessorCount, 1 + laneBudget / max(1, perLane)))
    }

    /// Memory for the lanes beyond the first.
    static let laneBudget = 96 << 20
    /// Pictures a lane may decode ahead of the merger while another lane's run is handed on:
    /// 8 at 720p, 3 at 1080p. Twice that was no faster on the 720p bench clip, for 25 MB more.
    static let aheadPictures = PictureBudget(bytes: 16 << 20, pictures: 2...16)
    /// Packet bytes waiting for one lane.
    static let queuedPacketBytes = 8 << 20

    private let lanes: [Lane]
    private let merger: PipelineWorker
    private let stream: StreamInfo
    private var current = 0
    /// True when every picture of the stream is a keyframe: a packet no slot needs need not be sent.
    let isIntraOnly: Bool

    /// Starts `lanes` decoders (`threads` threads each) of stream `index` of `demuxer`'s file,
    /// and the merger that pushes their pictures to `output` at their times less `origin`.
    /// `lanes` nil: `laneCount` for the stream's pictures.
    init(demuxer: Demuxer, stream index: Int, lanes count: Int? = nil, threads: Int,
         output: PipelineQueue<SourceItem>, origin: MediaTime, statistics: DecodeStatistics,
         isPastLastSlot: @escaping @Sendable (MediaTime) -> Bool) throws {
        stream = demuxer.file.streams[index]
        let (width, height, pixelFormat) = (stream.video?.width ?? 0, stream.video?.height ?? 0, stream.video?.pixelFormat ?? "")
        let capacity = Self.aheadPictures.capacity(width: width, height: height, pixelFormat: pixelFormat)
        let count = count ?? Self.laneCount(width: width, height: height, pixelFormat: pixelFormat)
        var intraOnly = false
        let lanes = try (0..<max(1, count)).map { _ in
            let decoder = try Decoder(demuxer: demuxer, stream: index, threads: threads)
            intraOnly = decoder.isIntraOnly
            // A decoder copies its stream's parameters and keeps no reference to the demuxer.
            return Lane(decoder: disconnected(consume decoder), pictures: capacity)
        }
        self.lanes = lanes
        isIntraOnly = intraOnly
        merger = PipelineWorker("slomo decode merge")
        for lane in lanes {
            lane.worker.start { try RunDecoders.decode(in: lane, origin: origin, statistics: statistics) }
        }
        merger.start { try RunDecoders.merge(lanes, into: output, statistics: statistics, isPastLastSlot: isPastLastSlot) }
    }

    /// Whether a run may begin at a keyframe shown at `time`: one that no picture leans across,
    /// i.e. every picture sent before it (`before`, the times of the last few) is shown before
    /// it, and none of those read after it up to the next keyframe (`after`) is shown before it,
    /// as an open GOP's leading pictures are.
    static func mayStartRun(at time: MediaTime, before: [MediaTime], after: [MediaTime]) -> Bool {
        before.allSatisfy { $0 < time } && after.allSatisfy { $0 > time }
    }

    /// Ends the current run: the packets sent from now on go to the next lane. With one lane
    /// there are no runs: its decoder goes through the stream as it is.
    func startRun() throws {
        guard lanes.count > 1, try hand(.endOfRun) else { return }
        current = (current + 1) % lanes.count
    }

    /// Hands `packet` to the current run: `.none` for a picture a slot needs; otherwise what
    /// its decoder may leave undecoded, and its picture, if decoded all the same, is dropped.
    /// Returns false once no slot needs more pictures: the caller stops reading.
    func send(_ packet: sending Packet, skipping: Decoder.PictureSkipping) throws -> Bool {
        try hand(.packet(packet, skipping: skipping))
    }

    /// Pushes `command` to the current lane; false once the merger has closed the lanes'
    /// queues (they stay closed, so every later push says so too).
    private func hand(_ command: sending Command) throws -> Bool {
        do {
            try lanes[current].commands.push(command)
            return true
        } catch is QueueClosed {
            return false
        }
    }

    /// Ends the last run, waits for every picture to be handed on, and says what the decoders
    /// found damaged (nil when every packet decoded cleanly).
    func finish() throws -> Damage? {
        _ = try hand(.endOfRun)
        for lane in lanes { lane.commands.finish() }
        let errors = lanes.map { $0.worker.join() } + [merger.join()]
        if let error = errors.compactMap({ $0 }).first { throw error }
        let decoders = lanes.compactMap { lane in lane.decoder.withLock { $0.take() } }
        return Decoder.damageReport(of: decoders, for: stream)
    }

    /// Stops the lanes and the merger if they still run (the reader failed), and waits for them.
    func cancel() {
        for lane in lanes {
            lane.commands.fail(QueueClosed())
            lane.pictures.fail(QueueClosed())
            lane.worker.join()
        }
        merger.join()
    }

    /// A lane's thread: decodes its runs, each from its keyframe to its end as after a seek.
    /// Pictures come out in presentation order, so a lane's pictures are a run's in order.
    private static func decode(in lane: Lane, origin: MediaTime, statistics: DecodeStatistics) throws {
        var needed: [Int64: Bool] = [:]    // pts → whether a slot needs the picture
        do {
            try lane.decoder.withLock { held in
                guard let decoder = held else { return }
                while let command = try lane.commands.pop() {
                    switch command {
                    case .packet(let packet, let skipping):
                        if let pts = packet.pts { needed[pts] = skipping == .none }
                        decoder.skipping = skipping
                        try decoder.sendSkippingDamaged(packet)
                        try deliver(from: decoder, to: lane, needed: &needed, origin: origin, statistics: statistics)
                    case .endOfRun:
                        decoder.skipping = .none
                        try decoder.sendEndOfStream()
                        try deliver(from: decoder, to: lane, needed: &needed, origin: origin, statistics: statistics)
                        decoder.reset()
                        needed.removeAll()
                        try lane.pictures.push(.endOfRun)
                    }
                }
            }
            lane.pictures.finish()
        } catch is QueueClosed {
            // The merger has all it needs, or the export stopped.
        } catch {
            lane.pictures.fail(error)
            throw error
        }
    }

    /// Hands each picture `decoder` has ready that a slot needs (`needed`: pts → whether a slot
    /// needs it) to `lane`'s merger, at its time less `origin`.
    private static func deliver(from decoder: Decoder, to lane: Lane, needed: inout [Int64: Bool], origin: MediaTime,
                                statistics: DecodeStatistics) throws {
        while let frame = try decoder.receive() {
            statistics.count(decoded: 1)
            guard let presented = frame.presentationTime else { continue }
            if let pts = frame.pts ?? frame.bestEffortPTS {
                // Pictures come out in display order: what was decided about earlier ones is moot.
                if needed.count > 4 * SourceFrameStage.lookahead { needed = needed.filter { $0.key >= pts } }
                if needed.removeValue(forKey: pts) == false { continue }
            }
            try lane.pictures.push(.frame(frame, time: presented - origin))
        }
    }

    /// The merger's thread: run after run, each from its lane, until a lane has no more runs
    /// or no slot needs more pictures. Then it closes every queue, which stops the reader and
    /// the lanes.
    private static func merge(_ lanes: [Lane], into output: PipelineQueue<SourceItem>, statistics: DecodeStatistics,
                              isPastLastSlot: @Sendable (MediaTime) -> Bool) throws {
        func close() {
            for lane in lanes {
                lane.commands.fail(QueueClosed())
                lane.pictures.fail(QueueClosed())
            }
        }
        do {
            var run = 0
            runs: while true {
                let lane = lanes[run % lanes.count]
                while let item = try lane.pictures.pop() {
                    switch item {
                    case .endOfRun:
                        run += 1
                        continue runs
                    case .frame(let frame, let time):
                        statistics.count(used: 1)
                        try output.push(.frame(frame, time: time))
                        if isPastLastSlot(time) { break runs }
                    }
                }
                break
            }
            close()
        } catch {
            for lane in lanes { lane.commands.fail(error) }
            close()
            throw error
        }
    }
}
