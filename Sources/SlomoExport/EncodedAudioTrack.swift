import SlomoConcurrency
import SlomoCore
import SlomoMedia

/// An audio track of an export as the muxer sees it: encoded packets in output order, and what
/// making them met (damage in the sources, warnings). `AudioTrackExport` renders and encodes
/// them; `CopiedAudioTrack` copies those a chunked export's audio part encoded. A track is
/// `Sendable`: one thread asks it for packets while another writes them.
protocol EncodedAudioTrack: AnyObject, Sendable {
    /// The muxer's stream the packets go to.
    var outputStream: Int { get }
    /// The next packet, nil when the track is done; the caller's alone.
    func nextPacket() throws -> sending Packet?
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
    private let stream: Int
    private let priming: Int64
    private let end: MediaTime
    /// The reading, by whichever thread asks for the next packet.
    private let reading: Guarded<Reading>

    private struct Reading {
        let demuxer: Demuxer
        var shift: Int64?
        var held: Packet?
    }

    /// Adds a copy of stream `index` of the part at `path`, whose encoder primed `priming`
    /// samples, for an output that lasts `duration`.
    init(path: String, stream index: Int, priming: Int, duration: MediaTime, muxer: Muxer) throws {
        let demuxer = try Demuxer(path: path)
        demuxer.select(streams: [index])
        stream = index
        self.priming = Int64(priming)
        end = duration
        outputStream = try muxer.addStream(copying: index, of: demuxer)
        muxer.setInitialPadding(priming, stream: outputStream)
        // The muxer copied the stream's parameters and keeps no reference to the demuxer.
        reading = Guarded(Reading(demuxer: disconnected(consume demuxer)))
    }

    func nextPacket() throws -> sending Packet? {
        try reading.withLock { reading in
            if reading.held == nil { reading.held = try read(&reading) }
            guard let packet = reading.held.take() else { return nil }
            reading.held = try read(&reading)
            if reading.held == nil, let start = packet.presentationTime {
                packet.duration = max(0, try (end - start).ticks(in: packet.timeBase, rounding: .nearest))
            }
            // Taken out of `held`, which had the packet's only reference.
            return disconnected(consume packet)
        }
    }

    /// The next packet of the stream with its times restored.
    private func read(_ reading: inout sending Reading) throws -> Packet? {
        while let packet = try reading.demuxer.read() {
            guard packet.streamIndex == stream else { continue }
            // Times in 1/sample rate count samples: the first packet starts `priming` samples before 0.
            let shift = reading.shift ?? ((packet.pts ?? 0) + priming)
            reading.shift = shift
            packet.pts = packet.pts.map { $0 - shift }
            packet.dts = packet.dts.map { $0 - shift }
            return packet
        }
        return nil
    }

    var damage: [(source: String, damage: Damage)] { [] }
    var warnings: [String] { [] }
}
