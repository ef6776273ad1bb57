import Foundation
import SlomoCore

/// The sound of a freeze frame (`Freeze.Audio`): silence, or the sound at the held moment
/// frozen in place.
///
/// Freezing keeps the magnitude spectrum of one analysis frame centred on the held time and
/// lets each bin's phase advance at that bin's own instantaneous frequency (measured from the
/// phase change between two frames a hop apart, as a phase vocoder does), so a held tone keeps
/// its pitch and level and a held chord its partials, without the buzz a repeated grain has.
/// Frames of `size` samples (Hann) are overlap-added every `size / 4`.
final class HeldSound {
    /// Analysis and synthesis frame length at 48 kHz (85 ms): long enough to resolve a voice's
    /// partials; scaled with the sample rate.
    static let frameSeconds = 4096.0 / 48000

    private let channels: [Channel]
    private let size: Int, hop: Int
    private var pending: [[Float]]      // synthesised, not yet handed out, per channel

    /// Silence for `channelCount` channels.
    init(silenceFor channelCount: Int) {
        channels = []
        size = 0
        hop = 0
        pending = Array(repeating: [], count: channelCount)
    }

    /// The sound of `source` at frame `at`, frozen.
    init(freezing source: any AudioSampleSource, at: Int, sampleRate: Int) throws {
        var size = 2
        while Double(size) < Self.frameSeconds * Double(sampleRate) { size *= 2 }
        self.size = size
        self.hop = size / 4
        let window = (0..<size).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
        // Two frames a hop apart, the second centred on the held frame (silence before the track).
        let start = at - size / 2 - size / 4
        let read = try source.read(from: max(0, start), count: size + size / 4 - max(0, -start))
        let padding = max(0, -start)
        let hop = size / 4
        channels = (0..<read.channelCount).map { channel in
            let samples = [Float](repeating: 0, count: padding) + read.channels[channel]
            return Channel(earlier: Array(samples[0..<size]), held: Array(samples[hop..<(hop + size)]),
                           window: window, hop: hop)
        }
        pending = Array(repeating: [], count: read.channelCount)
    }

    /// The next `count` frames.
    func next(_ count: Int) -> AudioBuffer {
        guard !channels.isEmpty else {
            return AudioBuffer(channelCount: pending.count, frameCount: count)
        }
        while pending[0].count < count {
            for (index, channel) in channels.enumerated() { pending[index] += channel.nextHop() }
        }
        let out = pending.map { Array($0[0..<count]) }
        pending = pending.map { Array($0[count...]) }
        return AudioBuffer(planar: out)
    }

    /// One channel's frozen spectrum and running phases, and its overlap-add buffer.
    private final class Channel {
        private let fft: RealFFT
        private let window: [Float]
        private let hop: Int
        private let magnitudes: [Float]
        private let advance: [Double]       // phase advance per hop, per bin
        private var phases: [Double]
        private var overlap: [Float]

        init(earlier: [Float], held: [Float], window: [Float], hop: Int) {
            let size = window.count
            let fft = RealFFT(size: size)
            self.fft = fft
            self.window = window
            self.hop = hop
            func spectrum(_ samples: [Float]) -> [(magnitude: Float, phase: Double)] {
                for i in 0..<size { fft.time[i] = samples[i] * window[i] }
                fft.forward()
                return (0...(size / 2)).map { k in
                    let re = fft.spectrum[2 * k], im = fft.spectrum[2 * k + 1]
                    return ((re * re + im * im).squareRoot(), atan2(Double(im), Double(re)))
                }
            }
            let a = spectrum(earlier), b = spectrum(held)
            magnitudes = b.map(\.magnitude)
            phases = b.map(\.phase)
            advance = (0...(size / 2)).map { k in
                let expected = 2 * Double.pi * Double(k) * Double(hop) / Double(size)
                var deviation = b[k].phase - a[k].phase - expected
                deviation -= 2 * Double.pi * (deviation / (2 * Double.pi)).rounded()
                return expected + deviation
            }
            overlap = [Float](repeating: 0, count: size)
            // Until four frames overlap, the sum is still rising: start where it is whole.
            for _ in 0..<(size / hop - 1) { _ = nextHop() }
        }

        /// The next `hop` samples: one more frame overlap-added.
        func nextHop() -> [Float] {
            let size = window.count
            for k in 0..<magnitudes.count {
                phases[k] += advance[k]
                fft.spectrum[2 * k] = magnitudes[k] * Float(cos(phases[k]))
                fft.spectrum[2 * k + 1] = magnitudes[k] * Float(sin(phases[k]))
            }
            fft.inverse()
            // Hann analysis × Hann synthesis at a quarter-frame hop sums to 1.5; FFTW scales by n.
            let scale = 1 / (Float(size) * 1.5)
            for i in 0..<size { overlap[i] += fft.time[i] * window[i] * scale }
            let out = Array(overlap[0..<hop])
            overlap.removeFirst(hop)
            overlap += [Float](repeating: 0, count: hop)
            return out
        }
    }
}
