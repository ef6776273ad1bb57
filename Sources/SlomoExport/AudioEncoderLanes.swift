import SlomoConcurrency
import SlomoCore
import SlomoMedia

/// AAC encoded on several threads at once, giving the packets one encoder would give up to
/// quantisation. FFmpeg's AAC encoder is single-threaded and is what bounds a long passthrough
/// retime (200 s of sound: 3.8 s, against 1 s to copy the gigabyte of video beside it).
///
/// The output's packet grid is cut into segments of `segmentFrames` packets, encoded in turn by
/// `lanes` encoders of their own. An AAC packet with presentation time p is the transform of
/// the samples [p, p + 2048), so a segment's encoder reads from `prerollFrames` packets before
/// it and `lookaheadFrames` past its end (so that its last window decisions see what follows),
/// and the packets outside its segment are dropped. The pre-roll is long because FFmpeg's
/// encoder settles slowly: on a steady tone at 128 kb/s, encoders started 4 or 48 packets early
/// each put one block near 8 dB SNR (a dropped band) somewhere in their first hundred packets,
/// which one encoder running on did not; started 256 packets (5.5 s) early, none did, and they
/// end up making the single encoder's own decisions. It costs 13 % more encoding at the
/// default 2048-packet (44 s) segments, which only outputs longer than one segment pay. Where two
/// segments meet, the decoder overlaps the last packet of one with the first of the next: both
/// are transforms of the same samples, so their time-domain aliasing cancels as between any
/// two packets, up to each one's quantisation (`AudioEncoderLanesTests` holds every block at
/// the seams to the single encoder's quality). Priming (1024 samples) and the stream's length
/// are those of one encoder.
///
/// One thread feeds and collects (`encode`, `finish`, like `AudioBlockEncoder`'s), and gets a
/// segment's packets once it is finished; the lanes run on threads of their own.
final class AudioEncoderLanes: AudioBlockEncoding {
    /// Samples per packet (AAC).
    static let packetSamples: Int64 = 1024
    let segmentFrames: Int64
    static let prerollFrames: Int64 = 256
    static let lookaheadFrames: Int64 = 4

    private let lanes: [Lane]
    private let results: Guarded<Results>
    /// Samples fed so far (output sample index of the next one).
    private var position: Int64 = 0
    /// Segments started (fed their first samples) and not yet finished, in order.
    private var active: [Int] = []
    /// The next segment to start, and the next whose packets go out.
    private var nextToStart = 0, nextToDeliver = 0

    /// One thread with its queue of commands; segment j goes to lane j % lanes.
    private struct Lane {
        let commands: PipelineQueue<Command>
        let worker: PipelineWorker
    }

    private enum Command: Sendable {
        case start(segment: Int, inputStart: Int64, keepFrom: Int64?, keepUntil: Int64)
        case samples([[Float]])
        /// The segment's input ended; `keepsTail`: it is the output's last and keeps its packets
        /// past its end (the encoder's flush).
        case finish(keepsTail: Bool)
    }

    private struct Results {
        var packets: [Int: [Packet]] = [:]
        var finished: Set<Int> = []
        var failure: (any Error)?
    }

    /// Packets a segment unless told otherwise: about 44 s at 48 kHz.
    static let defaultSegmentFrames: Int64 = 2048

    /// Segments for a track of `frames` samples: as many for every lane, so that the lanes finish
    /// together (216 s in five 44 s segments left one lane 139 s to encode and the other 98 s),
    /// in the whole number of rounds nearest to `defaultSegmentFrames` packets a segment, and
    /// none shorter than the pre-roll allows.
    static func balancedSegmentFrames(forTrack frames: Int64, lanes: Int = 2) -> Int64 {
        let packets = (frames + packetSamples - 1) / packetSamples
        let perRound = Int64(lanes) * defaultSegmentFrames
        let rounds = max(1, (packets + perRound / 2) / perRound)
        let segments = rounds * Int64(lanes)
        return max(shortestSegmentFrames, (packets + segments - 1) / segments)
    }

    /// The shortest segment the pre-roll, the lookahead and the feeding steps allow.
    static var shortestSegmentFrames: Int64 { 2 * (prerollFrames + lookaheadFrames + 1 + stepFrames) }

    /// Lanes encoding AAC from planar float blocks in `format`; `segmentFrames` packets a segment.
    init(format: AudioFormat, globalHeader: Bool, lanes count: Int = 2, segmentFrames: Int64 = defaultSegmentFrames) {
        // Two lanes at least: a segment starts (its pre-roll) before the one before it ends.
        precondition(count >= 2 && segmentFrames >= Self.shortestSegmentFrames,
                     "two lanes or more, and segments longer than their pre-roll, lookahead and a step")
        self.segmentFrames = segmentFrames
        let results = Guarded(Results())
        self.results = results
        lanes = (0..<count).map { Self.startLane($0, format: format, globalHeader: globalHeader, results: results) }
    }

    /// Lane `index`'s thread, waiting for its first command.
    private static func startLane(_ index: Int, format: AudioFormat, globalHeader: Bool, results: Guarded<Results>) -> Lane {
        let commands = PipelineQueue<Command>(capacity: Int(Int32.max), bytes: queuedBytes) { command in
            guard case .samples(let channels) = command else { return 0 }
            return channels.count * (channels.first?.count ?? 0) * MemoryLayout<Float>.size
        }
        let worker = PipelineWorker("slomo aac lane \(index)") {
            do {
                try run(commands, format: format, globalHeader: globalHeader, results: results)
            } catch {
                results.withLock { $0.failure = $0.failure ?? error }
                commands.fail(error)
                throw error
            }
        }
        return Lane(commands: commands, worker: worker)
    }

    /// Stops the lanes (an export given up) and waits for them.
    deinit {
        for lane in lanes { lane.commands.fail(QueueClosed()) }
        for lane in lanes { lane.worker.join() }
    }

    private var segmentSamples: Int64 { segmentFrames * Self.packetSamples }

    /// Output samples segment `j`'s encoder reads: from `prerollFrames` packets before its first
    /// kept packet to `lookaheadFrames` packets after its last one's window.
    private func inputRange(of segment: Int) -> Range<Int64> {
        let start = Int64(segment) * segmentSamples
        return max(0, start - Self.prerollFrames * Self.packetSamples)
            ..< start + segmentSamples + (1 + Self.lookaheadFrames) * Self.packetSamples
    }

    /// Feeds `channels` (one array per channel) and returns the packets now ready, in order.
    func encode(_ channels: [[Float]]) throws -> [Packet] {
        let count = channels.first?.count ?? 0
        // In steps of at most four packets, so that a segment's end reaches its lane before the
        // start of the segment after next, which goes to the same lane.
        var offset = 0
        while offset < count {
            let step = min(count - offset, Int(Self.stepFrames * Self.packetSamples))
            try feed(channels, frames: offset..<offset + step)
            offset += step
        }
        return try collect(waiting: false)
    }

    /// The samples a lane's queue holds at most (22 s of 48 kHz stereo), so that the feeding
    /// runs ahead of the lane encoding one segment into the next and both lanes work; fed only
    /// as fast as one lane encodes, they would take turns. Measured on the 1 GB retime: 8, 12
    /// and 16 MB equally fast (4.4 s), peak memory 128, 134 and 143 MB.
    private static let queuedBytes = 8 << 20

    /// At most this many packets' samples are fed at once.
    private static let stepFrames: Int64 = 4

    /// Feeds `frames` of `channels`, the next samples of the track, to the segments they belong to.
    private func feed(_ channels: [[Float]], frames: Range<Int>) throws {
        let first = position - Int64(frames.lowerBound)    // the track's sample at channels' index 0
        let end = position + Int64(frames.count)
        while inputRange(of: nextToStart).lowerBound < end {
            let segment = nextToStart
            try send(.start(segment: segment, inputStart: inputRange(of: segment).lowerBound,
                            keepFrom: segment == 0 ? nil : Int64(segment) * segmentSamples,
                            keepUntil: Int64(segment + 1) * segmentSamples), to: segment)
            active.append(segment)
            nextToStart += 1
        }
        for segment in active {
            let range = inputRange(of: segment)
            let from = max(position, range.lowerBound), to = min(end, range.upperBound)
            if from < to {
                try send(.samples(channels.map { Array($0[Int(from - first)..<Int(to - first)]) }), to: segment)
            }
            if end >= range.upperBound { try send(.finish(keepsTail: false), to: segment) }
        }
        active.removeAll { end >= inputRange(of: $0).upperBound }
        position = end
    }

    /// Ends the input: the segment holding the last sample keeps the encoder's tail, segments
    /// started only for their pre-roll keep nothing; waits for every lane and returns the rest.
    func finish() throws -> [Packet] {
        let last = position > 0 ? Int((position - 1) / segmentSamples) : 0
        if active.isEmpty && nextToStart == 0 {
            // Nothing was fed: the single encoder's output for no samples is its flush alone.
            try send(.start(segment: 0, inputStart: 0, keepFrom: nil, keepUntil: segmentSamples), to: 0)
            active = [0]
            nextToStart = 1
        }
        for segment in active { try send(.finish(keepsTail: segment == last), to: segment) }
        active = []
        for lane in lanes { lane.commands.finish() }
        // Segments past the last were started for their pre-roll only.
        let delivered = last + 1
        var packets: [Packet] = []
        while nextToDeliver < delivered { packets += try collect(waiting: true) }
        results.withLock { $0.packets.removeAll() }
        for lane in lanes { if let error = lane.worker.join() { throw error } }
        return packets
    }

    private func send(_ command: sending Command, to segment: Int) throws {
        if let failure = results.read({ $0.failure }) { throw failure }
        try lanes[segment % lanes.count].commands.push(command)
    }

    /// The packets of the next segment once it is finished, waiting for it when `waiting`;
    /// none yet otherwise. Whole segments only: while the muxer takes a segment's packets, the
    /// feeding goes on into the next ones.
    private func collect(waiting: Bool) throws -> [Packet] {
        let segment = nextToDeliver
        if waiting {
            results.wait(until: { $0.finished.contains(segment) || $0.failure != nil }) { _ in }
        }
        let (packets, failure): ([Packet]?, (any Error)?) = results.withLock { state in
            guard state.failure == nil, state.finished.contains(segment) else { return (nil, state.failure) }
            var taken: [Packet] = []
            if var ready = state.packets.removeValue(forKey: segment) {
                // Taken out of the state's list, which held each packet's only reference.
                while !ready.isEmpty { taken.append(disconnected(ready.removeFirst())) }
            }
            return (taken, nil)
        }
        if let failure { throw failure }
        guard let packets else { return [] }
        nextToDeliver += 1
        return packets
    }

    /// A lane's thread: one encoder a segment, its packets moved to their place in time and
    /// kept if inside the segment.
    private static func run(_ commands: PipelineQueue<Command>, format: AudioFormat, globalHeader: Bool,
                            results: Guarded<Results>) throws {
        var segment = 0, inputStart: Int64 = 0, keeps: Range<Int64> = 0..<0
        var encoder: AudioBlockEncoder?
        while let command = try commands.pop() {
            var finished = false, keepsTail = false
            let packets: [Packet]
            switch command {
            case .start(let index, let start, let from, let until):
                (segment, inputStart, keeps) = (index, start, (from ?? .min)..<until)
                encoder = try AudioBlockEncoder(codec: .aac, depth: nil, format: format, globalHeader: globalHeader)
                continue
            case .samples(let channels):
                packets = try encoder!.encode(channels)
            case .finish(let tail):
                packets = try encoder!.finish()
                (finished, keepsTail, encoder) = (true, tail, nil)
            }
            let inside = keepsTail ? keeps.lowerBound..<Int64.max : keeps
            results.withLock(moving: Self.kept(consume packets, shiftedBy: inputStart, inside: inside)) { [segment] state, kept in
                state.packets[segment, default: []] += kept
                if finished { state.finished.insert(segment) }
            }
        }
    }

    /// `packets` moved by `shift` samples, those presented inside `range`.
    private static func kept(_ packets: consuming [Packet], shiftedBy shift: Int64, inside range: Range<Int64>) -> sending [Packet] {
        var kept: [Packet] = []
        while !packets.isEmpty {
            // Taken out of the encoder's list, which held the packet's only reference.
            let packet = disconnected(packets.removeFirst())
            packet.pts = packet.pts.map { $0 + shift }
            packet.dts = packet.dts.map { $0 + shift }
            if range.contains(packet.pts ?? 0) { kept.append(packet) }
        }
        return kept
    }
}
