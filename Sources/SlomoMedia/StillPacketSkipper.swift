import SlomoCore

/// The packets of one video stream read ahead of its decoder for `StillExtractor`, with those
/// that no picture still to be found needs left out: reading towards a time T, a keyframe at or
/// before T (and after the picture on screen) makes every packet before it unneeded, so the
/// decoder restarts there. Reading ahead stops once a packet decodes after T (none that follows
/// can be shown at or before T) or 64 MB are held. Every packet read is counted, so that a
/// picture's index in presentation order is known until the file is seeked.
struct StillPacketSkipper {
    /// What the decoder gets next.
    enum Step {
        /// The next packet, decoded after those before it.
        case packet(Packet)
        /// A keyframe to decode from afresh: what the decoder holds is not needed.
        case restart(Packet)
        /// The stream has ended.
        case end
    }

    private let demuxer: Demuxer
    private let stream: StreamInfo
    private let origin: MediaTime
    /// Packets read and not yet handed on, oldest first.
    private var pending: [Packet] = []
    private var next = 0
    /// True when `pending` starts at a keyframe the decoder should restart at.
    private var restartsAtFirst = false
    /// The latest presentation time read so far (from the clip origin).
    private var readUntil = MediaTime.zero
    /// True once the demuxer has no more packets.
    private var ended = false
    /// The most bytes held ahead of the decoder.
    private static let readAheadBudget = 64 << 20

    /// Presentation timestamps of the packets read, for indices: how many lie below the last
    /// index asked for, and the rest, sorted; nil once some packet could not be counted.
    private var countedBelow: Int? = 0
    private var above: [Int64] = []

    init(demuxer: Demuxer, stream: StreamInfo, origin: MediaTime) {
        self.demuxer = demuxer
        self.stream = stream
        self.origin = origin
    }

    /// True when `time` lies more than `distance` beyond the packets read: seeking is cheaper
    /// than reading on.
    func isFar(_ time: MediaTime, than distance: MediaTime) -> Bool {
        next == pending.count && time > readUntil + distance
    }

    /// Moves to the keyframe at or before `time`. Indices are unknown from here on.
    mutating func seek(to time: MediaTime) throws(FFmpegError) {
        try demuxer.seek(to: time + origin, stream: stream.index)
        pending = []
        next = 0
        restartsAtFirst = false
        ended = false
        readUntil = time
        countedBelow = nil
    }

    /// The next step for a decoder that is to reach the picture shown at `target`, the one
    /// on screen now (if any) being shown from `shown`.
    mutating func next(towards target: MediaTime, after shown: MediaTime?) throws(FFmpegError) -> Step {
        while next == pending.count && !ended { try readAhead(towards: target, after: shown) }
        guard next < pending.count else { return .end }
        let packet = pending[next]
        next += 1
        if next == 1 && restartsAtFirst {
            restartsAtFirst = false
            return .restart(packet)
        }
        return .packet(packet)
    }

    /// The index in presentation order of the picture with timestamp `pts`, once every packet
    /// shown before it has been read; nil after a seek.
    mutating func index(of pts: Int64) -> Int? {
        guard let below = countedBelow else { return nil }
        let passed = above.prefix { $0 < pts }.count
        above.removeFirst(passed)
        countedBelow = below + passed
        return below + passed
    }

    private mutating func readAhead(towards target: MediaTime, after shown: MediaTime?) throws(FFmpegError) {
        pending = []
        next = 0
        var bytes = 0
        while let packet = try demuxer.read() {
            guard packet.streamIndex == stream.index else { continue }
            count(packet)
            let time = packet.presentationTime.map { $0 - origin }
            if let time { readUntil = MediaTime.max(readUntil, time) }
            // A truncated file's last packet holds too little to decode (MediaFile.damage reports it).
            if !packet.isCorrupt {
                if packet.isKeyframe, let time, time <= target, shown.map({ time > $0 }) ?? true {
                    pending = [packet]
                    restartsAtFirst = true
                    bytes = 0
                } else {
                    pending.append(packet)
                }
                bytes += packet.size
            }
            // No packet decoded after this one can be shown at or before the target.
            guard let decoded = (packet.decodingTime ?? packet.presentationTime).map({ $0 - origin }),
                  decoded <= target, bytes < Self.readAheadBudget else { return }
        }
        ended = true
    }

    /// Counts `packet` among the pictures of the clip: not those before its origin, which an
    /// edit list hides (the demuxer hands them on for decoding, and the decoder drops them).
    private mutating func count(_ packet: Packet) {
        guard countedBelow != nil else { return }
        guard let pts = packet.pts, let time = packet.presentationTime else {
            countedBelow = nil
            return
        }
        guard time >= origin else { return }
        var position = above.count
        while position > 0 && above[position - 1] > pts { position -= 1 }
        above.insert(pts, at: position)
    }
}
