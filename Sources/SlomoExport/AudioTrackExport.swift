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
///
/// The track is `Sendable`: the export's audio thread asks it for packets while the muxer's
/// thread reads its stream, and the rendering thread renders its sources. What each of them
/// changes is in a `Guarded` value of its own, so the compiler checks that no two reach it at
/// once: the sources (`audio`, held by the rendering thread a block at a time) and the encoding
/// (`encoding`, held by whoever asks for the next packet).
final class AudioTrackExport: Sendable {
    let outputStream: Int
    private let codec: AudioCodec
    /// The sample format written (lossless codecs), nil for lossy ones.
    let depth: SampleDepth?
    /// The linear gain applied before encoding (from `ExportSettings.gain`).
    private let gain: Float
    /// Samples of priming the encoder puts first (AAC: 1024).
    let priming: Int
    /// The output time base of this track's packets.
    let timeBase: Rational
    /// The first source's sample rate and the rate written (they differ when the codec does
    /// not take the source's).
    private let sourceSampleRate: Int, sampleRate: Int
    /// The sources, rendered through their maps by the rendering thread.
    private let audio: Guarded<JoinedAudio>
    private let encoding: Guarded<Encoding>
    /// Rendered blocks waiting for the encoder, and the thread rendering them (started by the
    /// first `nextPacket()`).
    private let blocks = PipelineQueue<AudioBuffer>(capacity: 8)
    private let renderer = PipelineWorker("slomo audio render")

    /// What encoding the rendered blocks keeps.
    private struct Encoding {
        let encoder: AudioBlockEncoder
        /// AAC's lanes, which encode in its place when there are two cores or more.
        let lanes: AudioEncoderLanes?
        /// Holds true peaks under −1 dBTP in integer and lossy outputs; nil when off or float.
        let limiter: TruePeakLimiter?
        var pending: [Packet] = []
        var finished = false
        var rendering = false
        /// Rendered samples beyond full scale (clipped by integer codecs and most decoders),
        /// and the largest magnitude rendered.
        var overFullScale = 0
        var peak: Float = 0

        /// What encodes the blocks: the lanes, else the encoder.
        var blocks: any AudioBlockEncoding { lanes ?? encoder }
    }

    /// Stream `index` of `path` rendered through `map` (whose source time 0 is the input's
    /// `origin`) as `settings` say, encoded with `codec`, added to `muxer` as an encoded stream.
    convenience init(path: String, stream index: Int, map: TimeMap, origin: MediaTime, settings: ExportSettings,
                     codec: AudioCodec, muxer: Muxer) throws {
        try self.init(parts: [AudioPart(path: path, stream: index, map: map, origin: origin)], settings: settings,
                      codec: codec, muxer: muxer)
    }

    /// `parts` joined end to end in output time (see `JoinedAudio`) as `settings` say (the
    /// algorithm, engine, depth and gain), encoded with `codec` and added to `muxer` as one stream.
    init(parts: [AudioPart], settings: ExportSettings, codec: AudioCodec, muxer: Muxer) throws {
        // A codec the container cannot hold fails here, naming the valid pairs, not at the header.
        if let container = AudioOutputFormat(path: muxer.path) { _ = try container.codec(codec, for: muxer.path) }
        let depth = try Self.depth(asked: settings.audioDepth, codec: codec, parts: parts)
        let audio = try JoinedAudio(parts, algorithm: settings.audioAlgorithm, spectralEngine: settings.spectralEngine,
                                    sampleRate: codec.sampleRate(for:), pitch: settings.pitch)
        let (format, frameCount) = (audio.format, Int64(audio.frameCount))
        (sourceSampleRate, sampleRate) = (audio.sourceSampleRate, format.sampleRate)
        self.audio = Guarded(audio)
        self.codec = codec
        self.depth = depth
        gain = Float(pow(10, settings.gain / 20))
        let limiter = settings.limiter && depth != .f32
            ? TruePeakLimiter(sampleRate: format.sampleRate, channelCount: format.channelCount) : nil
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
        encoding = Guarded(Encoding(encoder: disconnected(consume encoder), lanes: lanes, limiter: limiter))
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

    /// The render thread stops (at its next block) and is waited for.
    deinit {
        guard encoding.read(\.rendering) else { return }
        blocks.fail(QueueClosed())
        renderer.join()
    }

    /// The next encoded packet in output order, or nil when the track is done.
    func nextPacket() throws -> sending Packet? {
        try encoding.withLock { encoding in
            if !encoding.rendering {
                encoding.rendering = true
                startRendering()
            }
            while encoding.pending.isEmpty && !encoding.finished { try produce(&encoding) }
            // Taken out of the track's own list, which held the packet's only reference.
            return encoding.pending.isEmpty ? nil : disconnected(encoding.pending.removeFirst())
        }
    }

    private func startRendering() {
        let audio = audio, blocks = blocks
        renderer.start {
            do {
                while let block = try audio.withLock({ try $0.nextBlock(maxFrames: 8192) }) { try blocks.push(block) }
                blocks.finish()
            } catch {
                blocks.fail(error)
                throw error
            }
        }
    }

    /// Encodes the next rendered block, as many full encoder frames as it completes; at the
    /// end, encodes the remainder and flushes the encoder.
    private func produce(_ encoding: inout sending Encoding) throws {
        if var block = try blocks.pop() {
            if gain != 1 { block = AudioBuffer(planar: block.channels.map { $0.map { $0 * gain } }) }
            if let limiter = encoding.limiter { block = limiter.process(block) }
            Self.measureLevel(block, in: &encoding)
            encoding.pending += try encoding.blocks.encode(block.channels)
        } else {
            if let error = renderer.join() { throw error }       // and what it met is complete
            if let tail = encoding.limiter?.finish() {
                Self.measureLevel(tail, in: &encoding)
                encoding.pending += try encoding.blocks.encode(tail.channels)
            }
            encoding.pending += try encoding.blocks.finish()
            encoding.finished = true
        }
    }

    /// Counts the samples of `block` beyond full scale: its peaks first (eight samples at a
    /// time), then, only in a channel that goes beyond, the samples that do.
    private static func measureLevel(_ block: AudioBuffer, in encoding: inout sending Encoding) {
        for (channel, peak) in zip(block.channels, block.samplePeaks) where peak > 1 {
            encoding.overFullScale += channel.count { abs($0) > 1 }
            encoding.peak = max(encoding.peak, peak)
        }
    }

    /// A warning when the rendered audio went beyond full scale (a stretch can raise peaks:
    /// the phase-gradient engine sharpens speech's pulses), nil otherwise.
    var clippingWarning: String? {
        let (overFullScale, peak) = encoding.read { ($0.overFullScale, $0.peak) }
        guard overFullScale > 0 else { return nil }
        let dB = 20 * log10(Double(peak))
        return "audio: \(overFullScale) rendered samples were beyond full scale (peak +\(String(format: "%.1f", dB)) dBFS) "
            + "and clip in integer formats and most players; for a clean result lower the gain by "
            + "\(String(format: "%.1f", dB + 0.1)) dB or write float (f32) samples"
    }

    /// A note when the audio was resampled because the codec does not take the source's rate
    /// (Opus takes 48, 24, 16, 12 or 8 kHz), nil otherwise.
    var resamplingWarning: String? {
        guard sourceSampleRate != sampleRate else { return nil }
        return "audio: resampled from \(sourceSampleRate) Hz to \(sampleRate) Hz, a rate \(codec) can encode"
    }

    /// What decoding the track's sources met damaged, with the file it is in; complete once
    /// `nextPacket()` returned nil.
    var damage: [(source: String, damage: Damage)] { audio.withLock { $0.damage } }

    /// A warning when the limiter lowered peaks (by more than 0.05 dB), nil otherwise.
    var limiterWarning: String? {
        guard let reduction = encoding.withLock({ $0.limiter?.largestReduction }), reduction > 0.05 else { return nil }
        return "audio: peaks beyond −1 dBTP lowered by up to \(String(format: "%.1f", reduction)) dB by the "
            + "true-peak limiter (turn it off to keep them, or write float samples, which are never limited)"
    }

    /// The track's warnings for `ExportResult`: resampling, then limiting or clipping.
    var warnings: [String] { [resamplingWarning, limiterWarning, clippingWarning].compactMap { $0 } }
}
