import SlomoAudio

/// Raises or lowers a rendered track's pitch by `ratio` without changing its length: the track
/// is rendered `ratio` times longer (its maps played 1/ratio as fast, so the time-pitch
/// algorithm stretches every segment that much more, keeping pitch), and this plays it `ratio`
/// times faster through libsamplerate (`VarispeedProcessor`, latency compensated), which
/// multiplies every frequency by `ratio`. The result is trimmed or padded to `frameCount`, the
/// unpitched track's exact length, so sync is kept to the sample.
final class PitchStage {
    private let varispeed: VarispeedProcessor
    private var remaining: Int
    private var held: [[Float]]
    private var drained = false

    init(ratio: Double, sampleRate: Int, channelCount: Int, frameCount: Int) throws {
        varispeed = try VarispeedProcessor(rate: ratio, sampleRate: sampleRate, channelCount: channelCount, quality: .fastest)
        remaining = frameCount
        held = Array(repeating: [], count: channelCount)
    }

    /// The next at most `maxFrames` pitched frames, pulling rendered ones from `pull`; nil at the end.
    func next(maxFrames: Int, pull: () throws -> AudioBuffer?) throws -> AudioBuffer? {
        guard remaining > 0 else { return nil }
        let wanted = min(maxFrames, remaining)
        while held[0].count < wanted && !drained {
            let output: AudioBuffer
            if let block = try pull() {
                output = try varispeed.process(block)
            } else {
                output = varispeed.finish()
                drained = true
            }
            for channel in held.indices { held[channel] += output.channels[channel] }
        }
        let count = min(wanted, max(held[0].count, drained ? wanted : 0))
        let out = held.map { samples in Array(samples.prefix(count)) + [Float](repeating: 0, count: max(0, count - samples.count)) }
        held = held.map { Array($0.dropFirst(count)) }
        remaining -= count
        return AudioBuffer(planar: out)
    }
}
