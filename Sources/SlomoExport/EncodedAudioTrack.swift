import SlomoCore
import SlomoMedia

/// An audio track of an export as the muxer sees it: encoded packets in output order, and what
/// making them met (damage in the sources, warnings). `AudioTrackExport` renders and encodes
/// them; `CopiedAudioTrack` copies those a chunked export's audio part encoded.
protocol EncodedAudioTrack: AnyObject {
    /// The muxer's stream the packets go to.
    var outputStream: Int { get }
    /// The next packet, nil when the track is done.
    func nextPacket() throws -> Packet?
    /// What decoding the track's sources met damaged, with the file it is in.
    var damage: [(source: String, damage: Damage)] { get }
    /// Warnings for `ExportResult`.
    var warnings: [String] { get }
}

extension AudioTrackExport: EncodedAudioTrack {}

/// The packets of one audio stream of a chunked export's audio part (`ExportPart.audio`),
/// copied into the join as they are: the audio was rendered and encoded once for the whole
/// output, as a single pass does. Their times are given back as the encoder made them (the
/// first packet at minus the encoder's priming), whatever the part's container did to keep
/// them non-negative; the output stream declares that priming so the player skips it, and the
/// last packet ends where the output does (the part's container kept no shorter last duration).
final class CopiedAudioTrack: EncodedAudioTrack {
    let outputStream: Int
    private let demuxer: Demuxer
    private let stream: Int
    private let priming: Int64
    private let end: MediaTime
    private var shift: Int64?
    private var held: Packet?

    /// Adds a copy of stream `index` of the part at `path`, whose encoder primed `priming`
    /// samples, for an output that lasts `duration`.
    init(path: String, stream index: Int, priming: Int, duration: MediaTime, muxer: Muxer) throws {
        demuxer = try Demuxer(path: path)
        demuxer.select(streams: [index])
        stream = index
        self.priming = Int64(priming)
        end = duration
        outputStream = try muxer.addStream(copying: index, of: demuxer)
        muxer.setInitialPadding(priming, stream: outputStream)
    }

    func nextPacket() throws -> Packet? {
        if held == nil { held = try read() }
        guard let packet = held else { return nil }
        held = try read()
        if held == nil, let start = packet.presentationTime {
            packet.duration = max(0, try (end - start).ticks(in: packet.timeBase, rounding: .nearest))
        }
        return packet
    }

    /// The next packet of the stream with its times restored.
    private func read() throws -> Packet? {
        while let packet = try demuxer.read() {
            guard packet.streamIndex == stream else { continue }
            // Times in 1/sample rate count samples: the first packet starts `priming` samples before 0.
            let shift = self.shift ?? ((packet.pts ?? 0) + priming)
            self.shift = shift
            packet.pts = packet.pts.map { $0 - shift }
            packet.dts = packet.dts.map { $0 - shift }
            return packet
        }
        return nil
    }

    var damage: [(source: String, damage: Damage)] { [] }
    var warnings: [String] { [] }
}
