import Foundation
import SlomoAudio
import SlomoComposition
import SlomoConcurrency
import SlomoCore
import SlomoMedia

/// One audio track of an export: the audio of one clip or of several joined end to end
/// (`JoinedAudio`), each rendered through its clip's time map with `AudioRenderer` (exactly
/// round(outEnd·sr) − round(outStart·sr) samples per segment), and encoded. Rendering runs on a
/// thread of its own, a few blocks ahead of the encoder (AAC's encoder alone takes as long as
/// the rest of a passthrough retime). Packets come out on demand, in order, with timestamps
/// counted in output samples, so memory stays bounded whatever the input's length.
final class AudioTrackExport {
    let outputStream: Int
    private let encoding: AudioBlockEncoder
    private let codec: AudioCodec
    private let audio: JoinedAudio
    private var pending: [Packet] = []
    private var finished = false
    /// Rendered blocks waiting for the encoder, and the thread rendering them (started by the
    /// first `nextPacket()`).
    private let blocks = PipelineQueue<AudioBuffer>(capacity: 8)
    private let renderer = PipelineWorker("slomo audio render", scope: LiveObjects.currentScope)
    private var rendering = false
    /// Rendered samples beyond full scale (clipped by integer codecs and most decoders), and
    /// the largest magnitude rendered.
    private var overFullScale = 0
    private var peak: Float = 0

    /// Stream `index` of `path` rendered through `map` (whose source time 0 is the input's
    /// `origin`), added to `muxer` as an encoded stream.
    convenience init(path: String, stream index: Int, map: TimeMap, origin: MediaTime, algorithm: TimePitchAlgorithm,
                     spectralEngine: SpectralEngine, codec: AudioCodec, muxer: Muxer) throws {
        try self.init(parts: [AudioPart(path: path, stream: index, map: map, origin: origin)],
                      algorithm: algorithm, spectralEngine: spectralEngine, codec: codec, muxer: muxer)
    }

    /// `parts` joined end to end in output time (see `JoinedAudio`), added to `muxer` as one
    /// encoded stream.
    init(parts: [AudioPart], algorithm: TimePitchAlgorithm, spectralEngine: SpectralEngine, codec: AudioCodec,
         muxer: Muxer) throws {
        // A codec the container cannot hold fails here, naming the valid pairs, not at the header.
        if let container = AudioOutputFormat(path: muxer.path) { _ = try container.codec(codec, for: muxer.path) }
        audio = try JoinedAudio(parts, algorithm: algorithm, spectralEngine: spectralEngine, sampleRate: codec.sampleRate(for:))
        self.codec = codec
        encoding = try AudioBlockEncoder(codec: codec, format: audio.format, globalHeader: muxer.needsGlobalHeader)
        outputStream = try muxer.addStream(for: encoding.encoder)
    }

    /// Samples of priming the encoder puts first (AAC: 1024).
    var priming: Int { encoding.encoder.initialPadding }

    /// The output time base of this track's packets.
    var timeBase: Rational { encoding.encoder.timeBase }

    /// The render thread stops (at its next block) and is waited for.
    deinit {
        guard rendering else { return }
        blocks.fail(QueueClosed())
        renderer.join()
    }

    /// The next encoded packet in output order, or nil when the track is done.
    func nextPacket() throws -> Packet? {
        if !rendering { startRendering() }
        while pending.isEmpty && !finished { try produce() }
        return pending.isEmpty ? nil : pending.removeFirst()
    }

    private func startRendering() {
        rendering = true
        let audio = audio, blocks = blocks
        renderer.start {
            do {
                while let block = try audio.nextBlock(maxFrames: 8192) { try blocks.push(block) }
                blocks.finish()
            } catch {
                blocks.fail(error)
                throw error
            }
        }
    }

    /// Encodes the next rendered block, as many full encoder frames as it completes; at the
    /// end, encodes the remainder and flushes the encoder.
    private func produce() throws {
        if let block = try blocks.pop() {
            measureLevel(block)
            pending += try encoding.encode(block.channels)
        } else {
            if let error = renderer.join() { throw error }       // and what it met is complete
            pending += try encoding.finish()
            finished = true
        }
    }

    /// Counts the samples of `block` beyond full scale.
    private func measureLevel(_ block: AudioBuffer) {
        for channel in block.channels {
            for x in channel where abs(x) > 1 {
                overFullScale += 1
                peak = max(peak, abs(x))
            }
        }
    }

    /// A warning when the rendered audio went beyond full scale (a stretch can raise peaks:
    /// the phase-gradient engine sharpens speech's pulses), nil otherwise.
    var clippingWarning: String? {
        guard overFullScale > 0 else { return nil }
        let dB = 20 * log10(Double(peak))
        return "audio: \(overFullScale) rendered samples were beyond full scale (peak +\(String(format: "%.1f", dB)) dBFS) "
            + "and clip in 16-bit formats and most players; lower the input's level for a clean result"
    }

    /// A note when the audio was resampled because the codec does not take the source's rate
    /// (Opus takes 48, 24, 16, 12 or 8 kHz), nil otherwise.
    var resamplingWarning: String? {
        guard audio.sourceSampleRate != audio.format.sampleRate else { return nil }
        return "audio: resampled from \(audio.sourceSampleRate) Hz to \(audio.format.sampleRate) Hz, a rate \(codec) can encode"
    }

    /// What decoding the track's sources met damaged, with the file it is in; complete once
    /// `nextPacket()` returned nil.
    var damage: [(source: String, damage: Damage)] { audio.damage }

    /// The track's warnings for `ExportResult`: resampling, then clipping.
    var warnings: [String] { [resamplingWarning, clippingWarning].compactMap { $0 } }
}
