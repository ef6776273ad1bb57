import Foundation
import SlomoAudio
import SlomoCore
import SlomoMedia

/// An audio track made of clips' audio placed end to end in output time: each part rendered
/// through its own clip's map (`ClipAudio`), all in one format, that of the first part with
/// audio (the others are resampled and remixed to it). Part `i` fills exactly the samples from
/// `round(start·sr)` to `round(end·sr)` of its clip's output range, so the joined track is as
/// long as the composition to the sample, and nothing drifts however many clips there are.
/// At each join the earlier part fades out and the later one fades in over `fadeSeconds`
/// (raised cosine), so a cut between unrelated sounds does not click. With `pitch` (in
/// semitones), every frequency is moved and the length kept: the parts render at a sample rate
/// the shift's ratio away from the track's and their samples are taken at the track's, or
/// (engines that render well only at the source's rate) `PitchStage` resamples them.
package final class JoinedAudio {
    /// The track's format: planar float at the first audible part's layout and at its rate as
    /// the initializer's `sampleRate` maps it.
    package let format: AudioFormat
    /// The first audible part's own sample rate.
    package let sourceSampleRate: Int
    /// Samples the whole track has.
    package let frameCount: Int
    /// The parts not yet finished, the current one first (a finished part lets go of its
    /// decoder and renderer).
    private var parts: [ClipAudio]
    private let fadeFrames: Int
    /// Moves the pitch of the joined track, when its parts render at its own rate.
    private let pitchStage: PitchStage?
    /// Parts finished so far.
    private var finishedParts = 0
    /// What decoding the finished parts met damaged, with the file it is in.
    private var finishedDamage: [(source: String, damage: Damage)] = []

    /// What decoding met damaged so far, with the file it is in: in the finished parts and in
    /// the one playing.
    package var damage: [(source: String, damage: Damage)] {
        finishedDamage + (parts.first.flatMap { part in part.damage.map { [(part.source, $0)] } } ?? [])
    }

    /// Fade length at each join.
    static let fadeSeconds = 0.005

    /// Opens every part's stream (so that a bad file or an impossible rate fails before
    /// anything is written); throws `CompositionError(.noAudio)` when no part has audio. `sampleRate` maps the
    /// first audible part's rate to the track's (to one the encoder takes); `parallelism` is
    /// how many pieces of a part render at once (nil: as many as there are cores), and
    /// `prerollSeconds` how much source warms a stretcher up (nil: the renderer's default).
    package init(_ parts: [AudioPart], algorithm: TimePitchAlgorithm, spectralEngine: SpectralEngine,
         sampleRate: (Int) -> Int, pitch semitones: Double = 0, parallelism: Int? = nil, prerollSeconds: Double? = nil) throws {
        let opened = try parts.map { try ClipAudio.Opened($0) }
        guard var format = opened.lazy.compactMap({ $0?.format }).first else {
            throw CompositionError(.noAudio, "none of the clips has an audio track")
        }
        sourceSampleRate = format.sampleRate
        format.sampleRate = sampleRate(format.sampleRate)
        self.format = format
        // A pitch moved by r makes the parts r times longer (their maps played 1/r as fast), so
        // that the algorithm keeps their pitch, then takes their samples r times faster.
        // Either the parts render at the rate sr/r (sources resampled to it) and their samples
        // are taken at sr: the engine renders no more samples than without the shift, and the
        // length is the unpitched one exactly (r is sr over that whole rate, within 0.02 cents).
        // The phase-gradient engine (its pieces continue each other's phases at any rate) and
        // the time-domain engine do so (its joins are aligned by correlation at any rate: a
        // 440 Hz tone measured 43.9 dB across them at 40363 Hz and 43.2 at 48 kHz with
        // SoundTouch, the engine before slomo's WSOLA).
        // Or the parts render at sr and `PitchStage` resamples the joined track: Rubber
        // Band's joins at 40363 Hz fell to 53.8 dB (61.3 at 48 kHz) and low-latency's tone to
        // 36.8 dB (43.2).
        let ratio = PitchShift.ratio(semitones: semitones)
        let rendersAtAnotherRate = semitones != 0
            && (algorithm == .spectral && spectralEngine == .phaseGradient || algorithm == .timeDomain)
        var rendering = format
        if rendersAtAnotherRate { rendering.sampleRate = Int((Double(format.sampleRate) / ratio).rounded()) }
        let lengthening = rendersAtAnotherRate ? try Rate(Rational(Int64(rendering.sampleRate), Int64(format.sampleRate)))
            : try Rate(Rational(approximating: 1 / ratio))
        self.parts = try zip(parts, opened).map { part, stream in
            let part = semitones == 0 ? part
                : AudioPart(path: part.path, stream: part.stream, map: try part.map.scaled(by: lengthening), origin: part.origin)
            return try ClipAudio(part, opened: stream, format: rendering, algorithm: algorithm, spectralEngine: spectralEngine,
                                 parallelism: parallelism, prerollSeconds: prerollSeconds)
        }
        frameCount = try parts.reduce(0) { $0 + (try $1.frameCount(sampleRate: format.sampleRate)) }
        pitchStage = semitones == 0 || rendersAtAnotherRate ? nil
            : try PitchStage(ratio: ratio, sampleRate: format.sampleRate, channelCount: format.channelCount, frameCount: frameCount)
        fadeFrames = Int((Self.fadeSeconds * Double(format.sampleRate)).rounded())
    }

    /// The next at most `maxFrames` frames in output order (never across a join, unless
    /// `PitchStage` moves the pitch); nil at the end.
    package func nextBlock(maxFrames: Int) throws -> AudioBuffer? {
        guard let pitchStage else { return try renderedBlock(maxFrames: maxFrames) }
        return try pitchStage.next(maxFrames: maxFrames) { try renderedBlock(maxFrames: maxFrames) }
    }

    /// The next rendered frames (at the pitch stage's longer length when it has one).
    private func renderedBlock(maxFrames: Int) throws -> AudioBuffer? {
        while let part = parts.first {
            let position = part.frameCount - part.remaining
            if let block = try part.nextBlock(maxFrames: maxFrames) {
                return faded(block, at: position, in: part)
            }
            if let found = part.damage { finishedDamage.append((part.source, found)) }
            parts.removeFirst()
            finishedParts += 1
        }
        return nil
    }

    /// `block` (frames `position…` of `part`) with the fades of the joins it touches applied.
    private func faded(_ block: AudioBuffer, at position: Int, in part: ClipAudio) -> AudioBuffer {
        let length = min(fadeFrames, part.frameCount / 2)
        let fadesIn = finishedParts > 0 && position < length
        let fadeOutStart = part.frameCount - length
        let fadesOut = parts.count > 1 && position + block.frameCount > fadeOutStart
        guard length > 0, fadesIn || fadesOut else { return block }
        let gains = (position ..< position + block.frameCount).map { frame -> Float in
            var gain: Float = 1
            if fadesIn && frame < length { gain *= Self.rise(frame, length) }
            if fadesOut && frame >= fadeOutStart { gain *= Self.rise(part.frameCount - 1 - frame, length) }
            return gain
        }
        return AudioBuffer(planar: block.channels.map { samples in zip(samples, gains).map { $0 * $1 } })
    }

    /// Raised-cosine gain rising from near 0 to near 1 over `length` frames, at frame `i`.
    private static func rise(_ i: Int, _ length: Int) -> Float {
        Float(0.5 - 0.5 * cos(Double.pi * (Double(i) + 0.5) / Double(length)))
    }
}
