import Foundation
import Testing
@testable import SlomoAudio

/// The true-peak limiter on its own: exactly as long as its input and in time, quiet sound
/// untouched, streamed in any block sizes with the same result, and true peaks (measured here
/// by an independent, longer 8x interpolator) under the ceiling. LimiterTests judge a stretched
/// voice with FFmpeg's meter.
@Suite struct TruePeakLimiterTests {
    /// `input` through a limiter in blocks of the given sizes (cycled), then its end.
    static func limited(_ input: AudioBuffer, sampleRate: Int = 48000, blocks: [Int]) -> (output: AudioBuffer, limiter: TruePeakLimiter) {
        let limiter = TruePeakLimiter(sampleRate: sampleRate, channelCount: input.channelCount)
        var output = AudioBuffer(channelCount: input.channelCount)
        var start = 0, next = 0
        while start < input.frameCount {
            let n = min(blocks[next % blocks.count], input.frameCount - start)
            output.append(limiter.process(input.slice(start..<(start + n))))
            start += n
            next += 1
        }
        output.append(limiter.finish())
        return (output, limiter)
    }

    /// Tone bursts 12 dB over the ceiling, 250 ms every 2 s with 5 ms raised-cosine edges, over a
    /// quiet tone; two channels a little apart.
    static func loud(seconds: Double, sampleRate: Int = 48000) -> AudioBuffer {
        let n = Int(seconds * Double(sampleRate))
        return AudioBuffer(planar: (0..<2).map { channel in
            (0..<n).map { i in
                let t = Double(i) / Double(sampleRate), inBurst = t.truncatingRemainder(dividingBy: 2)
                let edge = min(1, min(inBurst, max(0, 0.25 - inBurst)) / 0.005)
                let level = 0.2 + 3.3 * (0.5 - 0.5 * cos(Double.pi * edge))
                return Float(level * sin(2 * Double.pi * (997 + 11 * Double(channel)) * t + 0.7))
            }
        })
    }

    /// The largest magnitude between samples, interpolated 8x by a 64-tap Hann-windowed sinc.
    static func truePeak(_ samples: [Float]) -> Float {
        let half = 32, factor = 8
        var peak: Float = samples.map(abs).max() ?? 0
        for phase in 1..<factor {
            let fraction = Double(phase) / Double(factor)
            let taps = (-half + 1...half).map { k -> Double in
                let x = Double(k) - fraction
                let window = 0.5 + 0.5 * cos(Double.pi * x / Double(half + 1))
                return sin(Double.pi * x) / (Double.pi * x) * window
            }
            for n in half..<(samples.count - half) {
                var sum = 0.0
                for (k, tap) in taps.enumerated() { sum += tap * Double(samples[n - half + 1 + k]) }
                peak = max(peak, Float(abs(sum)))
            }
        }
        return peak
    }

    @Test(arguments: [[8192], [1], [1000, 1, 4095, 7, 1024], [100_000]])
    func anyBlockSizesGiveTheSameOutputOfTheInputsLength(blocks: [Int]) {
        let input = Self.loud(seconds: 1)
        let whole = Self.limited(input, blocks: [input.frameCount])
        let streamed = Self.limited(input, blocks: blocks)
        #expect(streamed.output.frameCount == input.frameCount)
        #expect(streamed.output == whole.output)
        #expect(streamed.limiter.largestReduction == whole.limiter.largestReduction)
    }

    @Test(arguments: [44100, 48000, 96000])
    func quietSoundPassesUntouchedAndInTime(sampleRate: Int) {
        let input = Signals.sine(440, seconds: 0.5, sampleRate: sampleRate, channels: 2, amplitude: 0.5)
        let limiter = TruePeakLimiter(sampleRate: sampleRate, channelCount: 2)
        var output = limiter.process(input)
        #expect(output.frameCount == input.frameCount - limiter.latency)
        output.append(limiter.finish())
        #expect(output == input)
        #expect(limiter.largestReduction == 0)
    }

    @Test func loudSoundStaysUnderTheCeiling() {
        let input = Self.loud(seconds: 2)
        let (output, limiter) = Self.limited(input, blocks: [4096])
        let ceiling = Float(pow(10, -1.0 / 20))
        let burst = 0 ..< 48000 * 3 / 10
        let peaks = output.channels.map { Self.truePeak(Array($0[burst])) }
        print("limiter: input peak \(input.channels.map { $0.map(abs).max() ?? 0 }), output true peaks \(peaks) against \(ceiling), "
              + "largest reduction \(limiter.largestReduction) dB")
        #expect(peaks.allSatisfy { $0 <= ceiling }, "under −1 dBTP by a finer meter than the limiter's own")
        #expect(limiter.largestReduction > 11 && limiter.largestReduction < 12.5)
        // The quiet tone comes back to its level: the 150 ms release has 1.5 s to recover.
        let quiet = 48000 * 7 / 4 ..< 48000 * 2
        let change = zip(output.channels[0][quiet], input.channels[0][quiet]).map { abs($0 - $1) }.max() ?? 1
        #expect(change < 0.001, "the quiet tone 1.5 s after a burst is within 0.001 of its level")
    }
}
