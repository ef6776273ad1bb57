import Foundation
import SlomoAudio
import SlomoComposition
import SlomoConcurrency
import SlomoCore
import SlomoMedia

/// One output audio track as planar float blocks ready to write: the audio of one clip or of
/// several joined end to end (`JoinedAudio`), each rendered through its clip's time map with
/// `AudioRenderer`, then the gain applied, peaks held under −1 dBTP by the true-peak limiter
/// (integer and lossy outputs) and the level measured for the clipping warning. Rendering runs
/// on a thread of its own, a few blocks ahead of whoever writes them, so memory stays bounded
/// whatever the input's length.
///
/// `Sendable`: the rendering thread renders the sources (`audio`, held a block at a time)
/// while the writing thread takes finished blocks (`finishing`); each is in a `Guarded` value
/// of its own, so the compiler checks that no two reach it at once.
final class FinishedAudio: Sendable {
    /// The rate and layout of the blocks (planar float).
    let format: AudioFormat
    /// Frames the track holds.
    let frameCount: Int
    /// The codec the blocks are for, and the first source's sample rate (they differ when the
    /// codec does not take the source's).
    private let codec: AudioCodec
    private let sourceSampleRate: Int
    /// The linear gain applied (from `ExportSettings.gain`).
    private let gain: Float
    private let audio: Guarded<JoinedAudio>
    private let finishing: Guarded<Finishing>
    /// Rendered blocks waiting to be finished, and the thread rendering them (started by the
    /// first `nextBlock()`).
    private let blocks = PipelineQueue<AudioBuffer>(capacity: 8)
    private let renderer = PipelineWorker("slomo audio render")

    /// What finishing the blocks keeps.
    private struct Finishing {
        /// Holds true peaks under −1 dBTP in integer and lossy outputs; nil when off or float.
        let limiter: TruePeakLimiter?
        var rendering = false
        var ended = false
        /// Rendered samples beyond full scale (clipped by integer codecs and most decoders),
        /// and the largest magnitude rendered.
        var overFullScale = 0
        var peak: Float = 0
    }

    /// `parts` joined end to end in output time (see `JoinedAudio`) as `settings` say (the
    /// algorithm, engine, gain, pitch and limiter), at a rate `codec` encodes, for samples of
    /// `depth` (nil: lossy).
    init(parts: [AudioPart], settings: ExportSettings, codec: AudioCodec, depth: SampleDepth?) throws {
        let audio = try JoinedAudio(parts, algorithm: settings.audioAlgorithm, spectralEngine: settings.spectralEngine,
                                    sampleRate: codec.sampleRate(for:), pitch: settings.pitch)
        (format, frameCount, sourceSampleRate) = (audio.format, audio.frameCount, audio.sourceSampleRate)
        self.audio = Guarded(audio)
        self.codec = codec
        gain = Float(pow(10, settings.gain / 20))
        let limiter = settings.limiter && depth != .f32
            ? TruePeakLimiter(sampleRate: format.sampleRate, channelCount: format.channelCount) : nil
        finishing = Guarded(Finishing(limiter: limiter))
    }

    /// The render thread stops (at its next block) and is waited for.
    deinit {
        guard finishing.read(\.rendering) else { return }
        blocks.fail(QueueClosed())
        renderer.join()
    }

    /// The next finished block in output order (the limiter's held-back tail last), nil when
    /// the track is done.
    func nextBlock() throws -> AudioBuffer? {
        try finishing.withLock { finishing in
            if !finishing.rendering {
                finishing.rendering = true
                startRendering()
            }
            guard !finishing.ended else { return nil }
            if var block = try blocks.pop() {
                if gain != 1 { block = AudioBuffer(planar: block.channels.map { $0.map { $0 * gain } }) }
                if let limiter = finishing.limiter { block = limiter.process(block) }
                Self.measureLevel(block, in: &finishing)
                return block
            }
            if let error = renderer.join() { throw error }       // and what it met is complete
            finishing.ended = true
            guard let tail = finishing.limiter?.finish() else { return nil }
            Self.measureLevel(tail, in: &finishing)
            return tail
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

    /// Counts the samples of `block` beyond full scale: its peaks first (eight samples at a
    /// time), then, only in a channel that goes beyond, the samples that do.
    private static func measureLevel(_ block: AudioBuffer, in finishing: inout sending Finishing) {
        for (channel, peak) in zip(block.channels, block.samplePeaks) where peak > 1 {
            finishing.overFullScale += channel.count { abs($0) > 1 }
            finishing.peak = max(finishing.peak, peak)
        }
    }

    /// What decoding the sources met damaged, with the file it is in; complete once
    /// `nextBlock()` returned nil.
    var damage: [(source: String, damage: Damage)] { audio.withLock { $0.damage } }

    /// A warning when the rendered audio went beyond full scale (a stretch can raise peaks:
    /// the phase-gradient engine sharpens speech's pulses), nil otherwise.
    var clippingWarning: String? {
        let (overFullScale, peak) = finishing.read { ($0.overFullScale, $0.peak) }
        guard overFullScale > 0 else { return nil }
        let dB = 20 * log10(Double(peak))
        return "audio: \(overFullScale) rendered samples were beyond full scale (peak +\(String(format: "%.1f", dB)) dBFS) "
            + "and clip in integer formats and most players; for a clean result lower the gain by "
            + "\(String(format: "%.1f", dB + 0.1)) dB or write float (f32) samples"
    }

    /// A note when the audio was resampled because the codec does not take the source's rate
    /// (Opus takes 48, 24, 16, 12 or 8 kHz), nil otherwise.
    var resamplingWarning: String? {
        guard sourceSampleRate != format.sampleRate else { return nil }
        return "audio: resampled from \(sourceSampleRate) Hz to \(format.sampleRate) Hz, a rate \(codec) can encode"
    }

    /// A warning when the limiter lowered peaks (by more than 0.05 dB), nil otherwise.
    var limiterWarning: String? {
        guard let reduction = finishing.withLock({ $0.limiter?.largestReduction }), reduction > 0.05 else { return nil }
        return "audio: peaks beyond −1 dBTP lowered by up to \(String(format: "%.1f", reduction)) dB by the "
            + "true-peak limiter (turn it off to keep them, or write float samples, which are never limited)"
    }

    /// The track's warnings for `ExportResult`: resampling, then limiting or clipping.
    var warnings: [String] { [resamplingWarning, limiterWarning, clippingWarning].compactMap { $0 } }
}
