/// The decoded frames of one stream of a file, in order: a demuxer that reads only that
/// stream and its decoder, flushed at the end. A packet whose data the decoder rejects is
/// skipped (its frame is missing: timestamps show the gap) and counted in `damage`. Not
/// thread-safe.
public final class FrameReader {
    public let demuxer: Demuxer
    public let decoder: Decoder
    public let streamIndex: Int
    private var flushed = false

    /// Opens `path` and prepares to decode stream `index` (other streams' data is skipped).
    public init(path: String, stream index: Int, threads: Int = 0) throws {
        demuxer = try Demuxer(path: path)
        demuxer.select(streams: [index])
        decoder = try Decoder(demuxer: demuxer, stream: index, threads: threads)
        streamIndex = index
    }

    /// What did not decode cleanly so far (packets rejected, pictures concealed); nil when
    /// everything did.
    public var damage: Damage? { decoder.damageReport(for: demuxer.file.streams[streamIndex]) }

    /// The next frame, or nil when the stream is exhausted.
    public func next() throws -> Frame? {
        while true {
            if let frame = try decoder.receive() { return frame }
            if flushed { return nil }
            if let packet = try demuxer.read() {
                // A packet cut by the end of a truncated file (reported as `MediaFile.damage`)
                // holds too little to decode.
                guard packet.streamIndex == streamIndex, !packet.isCorrupt else { continue }
                try decoder.sendSkippingDamaged(packet)
            } else {
                try decoder.sendEndOfStream()
                flushed = true
            }
        }
    }
}
