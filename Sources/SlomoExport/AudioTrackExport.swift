import Foundation
import SlomoAudio
import SlomoComposition
import SlomoConcurrency
import SlomoCore
import SlomoMedia

/// One audio track of an export, encoded: the finished blocks of `FinishedAudio` (rendered on
/// a thread of its own, a few blocks ahead of the encoder: AAC's encoder alone takes as long as
/// the rest of a passthrough retime) encoded into packets that come out on demand, in order,
/// with timestamps counted in output samples.
///
/// The track is `Sendable`: the export's audio thread asks it for packets while the muxer's
/// thread reads its stream; the encoding (`encoding`, held by whoever asks for the next packet)
/// is in a `Guarded` value of its own.
final class AudioTrackExport: Sendable {
    let outputStream: Int
    /// The sample format written (lossless codecs), nil for lossy ones.
    let depth: SampleDepth?
    /// Samples of priming the encoder puts first (AAC: 1024).
    let priming: Int
    /// The output time base of this track's packets.
    let timeBase: Rational
    private let audio: FinishedAudio
    private let encoding: Guarded<Encoding>

    /// What encoding the finished blocks keeps.
    private struct Encoding {
        let encoder: AudioBlockEncoder
        /// AAC's lanes, which encode in its place when there are two cores or more.
        let lanes: AudioEncoderLanes?
        var pending: [Packet] = []
        var finished = false

        /// What encodes the blocks: the lanes, else the encoder.
        var blocks: any AudioBlockEncoding { lanes ?? encoder }
    }

    /// `parts` joined end to end in output time (see `JoinedAudio`) as `settings` say (the
    /// algorithm, engine, depth and gain), encoded with `codec` and added to `muxer` as one stream.
    init(parts: [AudioPart], settings: ExportSettings, codec: AudioCodec, muxer: Muxer) throws {
        // A codec the container cannot hold fails here, naming the valid pairs, not at the header.
        if let container = AudioOutputFormat(path: muxer.path) { _ = try container.codec(codec, for: muxer.path) }
        let depth = try Self.depth(asked: settings.audioDepth, codec: codec, parts: parts)
        let audio = try FinishedAudio(parts: parts, settings: settings, codec: codec, depth: depth)
        let (format, frameCount) = (audio.format, Int64(audio.frameCount))
        self.audio = audio
        self.depth = depth
        let encoder = try AudioBlockEncoder(codec: codec, depth: depth, format: format, globalHeader: muxer.needsGlobalHeader)
        outputStream = try muxer.addStream(for: encoder.encoder)
        (priming, timeBase) = (encoder.encoder.initialPadding, encoder.encoder.timeBase)
        // AAC longer than a segment on two threads where there are two cores (with the
        // parameters of `encoder`). A shorter track keeps one encoder, whose packets go to the
        // muxer as they come rather than once the segment is done.
        let lanes = codec == .aac && ProcessInfo.processInfo.activeProcessorCount > 1
            && frameCount > AudioEncoderLanes.defaultSegmentFrames * AudioEncoderLanes.packetSamples
            ? AudioEncoderLanes(format: format, globalHeader: muxer.needsGlobalHeader,
                                segmentFrames: AudioEncoderLanes.balancedSegmentFrames(forTrack: frameCount)) : nil
        // The muxer copied the encoder's parameters and keeps no reference to it.
        encoding = Guarded(Encoding(encoder: disconnected(consume encoder), lanes: lanes))
    }

    /// The depth a lossless `codec` writes: `asked`, else the first part's source's lossless
    /// depth as near as the codec holds it, else 16 bits; nil for a lossy codec. Throws
    /// `.unsupportedCodec` when `asked` is a depth the codec does not write.
    static func depth(asked: SampleDepth?, codec: AudioCodec, parts: [AudioPart]) throws -> SampleDepth? {
        if let asked {
            try check(asked, codec: codec)
            return asked
        }
        guard codec.isLossless else { return nil }
        let source = parts.lazy.compactMap { part in
            part.stream.flatMap { index in (try? MediaFile(path: part.path))?.streams.first { $0.index == index }?.losslessDepth }
        }.first
        return source.flatMap(codec.nearestDepth(to:)) ?? .s16
    }

    /// Throws `.unsupportedCodec` unless `codec` writes samples at `depth`.
    static func check(_ depth: SampleDepth, codec: AudioCodec) throws {
        guard !codec.depths.contains(depth) else { return }
        if codec.isLossless {
            throw ExportError(.unsupportedCodec, "\(codec) audio holds \(codec.depths.map(\.rawValue).joined(separator: " or ")) "
                              + "samples, not \(depth); pcm holds every sample format")
        }
        throw ExportError(.unsupportedCodec, "\(codec) is lossy and keeps no sample format; write \(depth) samples with "
                          + "pcm, flac or alac (flac and alac hold s16 and s24)")
    }

    /// The next encoded packet in output order, or nil when the track is done.
    func nextPacket() throws -> sending Packet? {
        try encoding.withLock { encoding in
            while encoding.pending.isEmpty && !encoding.finished {
                if let block = try audio.nextBlock() {
                    encoding.pending += try encoding.blocks.encode(block.channels)
                } else {
                    encoding.pending += try encoding.blocks.finish()
                    encoding.finished = true
                }
            }
            // Taken out of the track's own list, which held the packet's only reference.
            return encoding.pending.isEmpty ? nil : disconnected(encoding.pending.removeFirst())
        }
    }

    /// What decoding the track's sources met damaged, with the file it is in; complete once
    /// `nextPacket()` returned nil.
    var damage: [(source: String, damage: Damage)] { audio.damage }

    /// The track's warnings for `ExportResult`: resampling, then limiting or clipping.
    var warnings: [String] { audio.warnings }
}
