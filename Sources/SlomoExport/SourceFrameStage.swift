import Foundation
import SlomoConcurrency
import SlomoCore
import SlomoMedia
import Synchronization

/// What the decode stage hands the renderer: a decoded picture at its source time (in the
/// clip's file time), or the end of a clip's pictures.
enum SourceItem {
    case frame(Frame, time: MediaTime)
    case endOfClip
}

/// Counts of the decode stage, for measuring how much decoding the slots saved.
public final class DecodeStatistics: Sendable {
    private let counts = Mutex<(packets: Int, skippedPackets: Int, decoded: Int, used: Int)>((0, 0, 0, 0))

    public init() {}

    /// Video packets read from the sources.
    public var packets: Int { counts.withLock { $0.packets } }
    /// Packets of intra-only codecs not sent to the decoder because no slot needed them.
    public var skippedPackets: Int { counts.withLock { $0.skippedPackets } }
    /// Pictures the decoders produced (pictures between slots that no decoded picture leans on
    /// are not decoded).
    public var decodedFrames: Int { counts.withLock { $0.decoded } }
    /// Pictures handed to the renderer.
    public var usedFrames: Int { counts.withLock { $0.used } }

    func count(packets: Int = 0, skipped: Int = 0, decoded: Int = 0, used: Int = 0) {
        counts.withLock {
            $0.packets += packets
            $0.skippedPackets += skipped
            $0.decoded += decoded
            $0.used += used
        }
    }
}

/// The decode stage of a CFR export, on its own thread: reads each clip's video from where the
/// clip starts, decodes only what some slot needs where the codec allows (non-reference
/// pictures between slots are skipped with the decoder's `skip_frame`; in H.264, a GOP is read
/// ahead and the reference B pictures no decoded picture leans on are skipped too,
/// `GOPSkipPlanner`; intra-only packets are not even sent), and stops once the clip's last
/// slot is covered. The packets go in runs between keyframes to several decoders
/// (`RunDecoders`), which hand the pictures on in order.
struct SourceFrameStage {
    /// A clip's pictures for some of its slots: forwards from where its slots start, or a
    /// reversed section's backwards (`reversed`, its source range; `schedule` is then on the
    /// mirrored map, see `ReversedSectionDecoder`).
    struct Clip {
        let path: String
        let range: TimeRange
        let schedule: SlotSchedule
        var reversed: TimeRange? = nil
    }

    let clips: [Clip]
    let output: PipelineQueue<SourceItem>
    let statistics: DecodeStatistics
    /// Where damage the decoders meet goes (or, in strict mode, fails the export).
    let session: ExportSession
    let damage: ExportWarnings
    /// Packets read ahead to learn the presentation order around each packet.
    static let lookahead = 16
    /// Decoder threads: half the cores, the encoder's threads get the other half. FFmpeg's
    /// default (cores + 1 frame threads) cost 10–25 % more CPU for the same pictures on 2
    /// cores, fought x264 for them, and held ≈ 40 MB more 1080p frames.
    static let decoderThreads = max(1, ProcessInfo.processInfo.activeProcessorCount / 2)

    /// One thread when the export verifies: FFmpeg 5.1's frame threads hand a
    /// picture on before error concealment flags it (of 32 concealed pictures in a test file,
    /// 4 frame threads flagged 13), and a damaged picture would pass unsaid. The decoding is
    /// spread over several decoders instead, each taking whole runs of packets (`RunDecoders`).
    var threads: Int { session.settings.verify ? 1 : Self.decoderThreads }

    func run() throws {
        for clip in clips {
            if let section = clip.reversed {
                let decoder = ReversedSectionDecoder(path: clip.path, section: section, clipStart: clip.range.start, schedule: clip.schedule,
                                                     threads: threads,
                                                     output: output, statistics: statistics)
                if let found = try decoder.run() { try session.found(found, in: clip.path, keptIn: damage) }
            } else {
                try decode(clip)
            }
            try output.push(.endOfClip)
        }
        output.finish()
    }

    private func decode(_ clip: Clip) throws {
        let demuxer = try Demuxer(path: clip.path)
        guard let video = demuxer.file.videoStream else {
            throw ExportError(.noVideo, "\(clip.path): has no video stream")
        }
        demuxer.select(streams: [video.index])
        let origin = demuxer.file.clipOrigin
        let schedule = clip.schedule
        guard !schedule.slots.isEmpty else { return }   // a chunk that holds none of this clip's slots
        let start = max(clip.range.start, schedule.decodingStart ?? clip.range.start)
        if start > .zero { try demuxer.seek(to: start + origin, stream: video.index) }
        let runs = try RunDecoders(demuxer: demuxer, stream: video.index, threads: threads, output: output,
                                   origin: origin, statistics: statistics) { schedule.isPastLastSlot($0) }
        defer { runs.cancel() }
        let intraOnly = runs.isIntraOnly
        var headers = video.codec.name == "h264"
            ? demuxer.extradata(of: video.index).withUnsafeBytes { H264HeaderReader(extradata: $0) } : nil

        let lastSlotTime = schedule.slots.isEmpty ? nil : schedule.sourceTime(ofSlot: schedule.slots.upperBound - 1)
        var ahead: [ReadAheadPacket] = []
        var recent: [MediaTime] = []          // presentation times of packets already sent
        var inRun = 0                         // packets sent in the current run
        var reachedEnd = false

        while true {
            while !reachedEnd && (ahead.count < Self.lookahead || GOPSkipPlanner.wantsMore(ahead)) {
                if let packet = try demuxer.read() {
                    guard packet.streamIndex == video.index else { continue }
                    ahead.append(ReadAheadPacket(packet: packet, time: packet.presentationTime.map { $0 - origin },
                                                 picture: headers?.references(in: packet.data)))
                } else {
                    reachedEnd = true
                }
            }
            GOPSkipPlanner.plan(&ahead, sent: recent, atEnd: reachedEnd) { schedule.needsFrame(at: $0, among: $1) }
            guard !ahead.isEmpty else { break }
            let head = ahead.removeFirst()
            // A keyframe once a picture past the last slot was sent: no slot needs what follows
            // (a chunk ending mid-file would otherwise have its decoders run a GOP or more ahead).
            if head.packet.isKeyframe, let last = lastSlotTime, recent.contains(where: { $0 > last }) { break }
            statistics.count(packets: 1)
            var skipping = head.plannedSkipping ?? .none
            if let here = head.time {
                if head.plannedSkipping == nil {
                    let around = recent + ahead.prefix(Self.lookahead).compactMap(\.time)
                    skipping = schedule.needsFrame(at: here, among: around) ? .none : .nonReference
                }
                if inRun >= RunDecoders.runLength, head.packet.isKeyframe, RunDecoders.mayStartRun(
                    at: here, before: recent, after: ahead.prefix { !$0.packet.isKeyframe }.compactMap(\.time)) {
                    try runs.startRun()
                    inRun = 0
                }
                recent.append(here)
                if recent.count > 2 * Self.lookahead { recent.removeFirst(recent.count - 2 * Self.lookahead) }
                if skipping != .none && intraOnly {
                    statistics.count(skipped: 1)
                    continue
                }
            }
            inRun += 1
            // Taken out of the read-ahead list, which held the packet's only other reference.
            let packet = (consume head).packet
            guard try runs.send(disconnected(consume packet), skipping: skipping) else { break }
        }
        if let found = try runs.finish() { try session.found(found, in: clip.path, keptIn: damage) }
    }
}
