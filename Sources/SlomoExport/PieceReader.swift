import SlomoCore
import SlomoMedia

/// The video packets of a chunked export's pieces (`ExportPart.join`), read in order and
/// checked as they go: each piece must hold exactly its frames, every timestamp an exact whole
/// frame number over the frame rate. The timestamps come from the plan, never from a
/// container's durations: a packet's presentation time is its frame's number over the frame
/// rate, and the `i`th packet of the piece starting at frame `n0` decodes at `n0 + i − delay`
/// frames, `delay` being the encoder's reorder delay (B-frames), so decoding times rise
/// across every join as within a piece. (NUT, the pieces' container, stores no decoding time
/// for a piece's first packets.)
final class PieceReader {
    private let pieces: [ExportPart.Piece]
    private let period: Rational
    private var current = 0
    private var demuxer: Demuxer?
    private var stream = 0
    private var framesSeen: [Int] = []
    /// The reorder delay of the pieces' stream, in frames.
    private var delay = 0
    /// How far the piece's container moved its timestamps (a muxer that keeps them
    /// non-negative shifts a first piece by the encoder's reorder delay): the piece's first
    /// packet is its keyframe, the first frame in display order, `frames.lowerBound`.
    private var shift: MediaTime?

    /// Opens the first piece; throws when a piece is missing or the pieces do not tile `0..<frames`.
    init(pieces: [ExportPart.Piece], frameRate: Rational, frames: Int) throws {
        guard pieces.first?.frames.lowerBound == 0, pieces.last?.frames.upperBound == frames,
              zip(pieces, pieces.dropFirst()).allSatisfy({ $0.frames.upperBound == $1.frames.lowerBound }) else {
            let ranges = pieces.map { "\($0.frames.lowerBound)-\($0.frames.upperBound)" }.joined(separator: ", ")
            throw ExportError(.invalidPlan, "the pieces hold frames \(ranges), not the output's 0-\(frames) in order")
        }
        self.pieces = pieces
        period = frameRate.reciprocal
        try open(0)
        delay = demuxer?.reorderDelay(of: stream) ?? 0
    }

    /// The first piece's video stream, whose parameters the output's stream copies (codec,
    /// extradata, time base); asked before the first `next()`.
    var first: (demuxer: Demuxer, stream: Int) {
        precondition(current == 0 && demuxer != nil, "PieceReader.first asked after reading began")
        return (demuxer!, stream)
    }

    /// The next packet, in piece order; nil after the last piece.
    func next() throws -> Packet? {
        while let demuxer {
            if let packet = try demuxer.read() {
                guard packet.streamIndex == stream else { continue }
                try check(packet)
                return packet
            }
            try finishPiece()
            current += 1
            self.demuxer = nil
            if current < pieces.count { try open(current) }
        }
        return nil
    }

    private func open(_ index: Int) throws {
        let demuxer = try Demuxer(path: pieces[index].path)
        guard let video = demuxer.file.videoStream else { throw ExportError(.noVideo, "\(pieces[index].path): piece has no video") }
        demuxer.select(streams: [video.index])
        stream = video.index
        framesSeen = []
        shift = nil
        self.demuxer = demuxer
    }

    /// Checks a packet and gives it its frame's time from the plan (and the decoding time
    /// moved by as much).
    private func check(_ packet: Packet) throws {
        let piece = pieces[current]
        guard let stored = packet.presentationTime else { throw ExportError(.invalidPlan, "\(piece.path): a packet has no time") }
        let shift = self.shift ?? stored - MediaTime(seconds: Rational(Int64(piece.frames.lowerBound)) * period)
        self.shift = shift
        let time = stored - shift
        guard let frame = try? time.ticks(in: period, rounding: .down), (try? time.ticks(in: period, rounding: .up)) == frame else {
            throw ExportError(.invalidPlan, "\(piece.path): a packet's time \(time.doubleSeconds) s is not a whole output frame")
        }
        let decoding = Int64(piece.frames.lowerBound + framesSeen.count - delay)
        framesSeen.append(Int(frame))
        guard decoding <= frame else {
            throw ExportError(.invalidPlan, "\(piece.path): frame \(frame) comes \(framesSeen.count) pictures into its piece, later than "
                              + "a reorder delay of \(delay) allows; were the pieces encoded with different settings?")
        }
        packet.pts = try time.ticks(in: packet.timeBase, rounding: .nearest)
        packet.dts = try MediaTime(seconds: Rational(decoding) * period).ticks(in: packet.timeBase, rounding: .nearest)
    }

    private func finishPiece() throws {
        let piece = pieces[current]
        guard framesSeen.sorted() == Array(piece.frames) else {
            throw ExportError(.invalidPlan, "\(piece.path): holds \(framesSeen.count) frames, not output frames "
                              + "\(piece.frames.lowerBound)-\(piece.frames.upperBound) (\(piece.frames.count)); render the piece again")
        }
    }
}
