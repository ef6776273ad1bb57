import Foundation

/// Keeps rendered sound below a true-peak ceiling (−1 dBTP by default), so that nothing clips in
/// an integer or lossy output: the peaks between samples are found by 4x oversampling (a
/// windowed-sinc interpolator, as ITU-R BS.1770 measures true peak), and the gain falls ahead
/// of each peak over a 5 ms lookahead and recovers with a 150 ms release, linked across
/// channels, so that a loud transient is lowered smoothly and quiet passages after it come back
/// to their level (no pumping on speech).
///
/// The gain at each output sample is the mean, over the lookahead, of the windowed minimum of
/// the gains the true peaks ask for: every sample is lowered at least as much as its own peak
/// needs. Streaming: `process(_:)` returns the input delayed by `latency` frames (fewer frames
/// at first), `finish()` the rest, so the total is exactly the input's length and in time.
public final class TruePeakLimiter {
    /// Frames of delay between input and output.
    public let latency: Int
    /// The largest gain reduction so far, in dB (0 when nothing was lowered).
    public var largestReduction: Double { -20 * log10(Double(smallestGain)) }

    private let ceiling: Float
    private let lookahead: Int
    private let release: Float
    private let channelCount: Int
    /// The interpolation filters for the points a quarter, a half and three quarters between
    /// two samples, each over `taps` samples around them.
    private let phases: [[Float]]
    private static let taps = 12
    /// Input kept for interpolation and the audio delay: a ring per channel, `mask + 1` long.
    private var rings: [[Float]]
    private let mask: Int
    private var written = 0
    private var needed = MinimumWindow()
    private var released: Float = 1
    private var recent: [Float]         // released gains over the lookahead, for their mean
    private var recentSum: Float = 0
    private var recentIndex = 0
    private var smallestGain: Float = 1

    /// A limiter for `channelCount` channels at `sampleRate`, holding true peaks below
    /// `ceiling` dBTP.
    public init(sampleRate: Int, channelCount: Int, ceiling: Double = -1) {
        self.ceiling = Float(pow(10, ceiling / 20))
        lookahead = max(1, Int((0.005 * Double(sampleRate)).rounded()))
        release = Float(1 - exp(-1 / (0.150 * Double(sampleRate))))
        self.channelCount = channelCount
        let half = Self.taps / 2
        phases = [0.25, 0.5, 0.75].map { fraction in
            let raw = (0..<Self.taps).map { tap -> Double in
                let x = Double(tap - half + 1) - fraction          // offset of sample n + tap − half + 1 from n + fraction
                let sinc = x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
                let window = 0.5 + 0.5 * cos(Double.pi * x / Double(half + 1))
                return sinc * window
            }
            let sum = raw.reduce(0, +)
            return raw.map { Float($0 / sum) }
        }
        latency = lookahead - 1 + half
        var size = 1
        while size < latency + Self.taps + 1 { size *= 2 }
        mask = size - 1
        rings = Array(repeating: [Float](repeating: 0, count: size), count: channelCount)
        recent = [Float](repeating: 1, count: lookahead)
        recentSum = Float(lookahead)
    }

    /// The block, limited, delayed by `latency` frames.
    public func process(_ block: AudioBuffer) -> AudioBuffer {
        precondition(block.channelCount == channelCount, "a limiter takes the channels it was made for")
        return run(block.frameCount) { channel, index in block.channels[channel][index] }
    }

    /// The last `latency` frames (of the input's end), limited.
    public func finish() -> AudioBuffer {
        run(latency) { _, _ in 0 }
    }

    /// Takes `count` input frames (`sample(channel, index)`); returns the frames that leave the delay.
    private func run(_ count: Int, sample: (Int, Int) -> Float) -> AudioBuffer {
        let half = Self.taps / 2
        let leaving = max(0, min(count, written + count - latency))
        var out = [[Float]](repeating: [Float](repeating: 0, count: leaving), count: channelCount)
        var produced = 0
        for index in 0..<count {
            let position = written & mask
            var peak: Float = 0
            for channel in 0..<channelCount {
                rings[channel][position] = sample(channel, index)
                // The sample `half` frames back, and the points a quarter, half and three quarters after it.
                rings[channel].withUnsafeBufferPointer { ring in
                    peak = max(peak, abs(ring[(written - half) & mask]))
                    for phase in phases {
                        var sum: Float = 0
                        for tap in 0..<Self.taps { sum += phase[tap] * ring[(written - Self.taps + 1 + tap) & mask] }
                        peak = max(peak, abs(sum))
                    }
                }
            }
            needed.push(peak > ceiling ? ceiling / peak : 1, at: written, window: lookahead)
            released = min(needed.minimum, released + (1 - released) * release)
            recentSum += released - recent[recentIndex]
            recent[recentIndex] = released
            recentIndex = (recentIndex + 1) % lookahead
            written += 1
            guard written > latency else { continue }
            let gain = min(1, recentSum / Float(lookahead))
            smallestGain = min(smallestGain, gain)
            for channel in 0..<channelCount { out[channel][produced] = rings[channel][(written - 1 - latency) & mask] * gain }
            produced += 1
        }
        return AudioBuffer(planar: out)
    }

    /// The minimum of the last `window` values pushed (a monotonic queue).
    private struct MinimumWindow {
        private var values: [(index: Int, value: Float)] = []
        private var head = 0

        var minimum: Float { values[head].value }

        mutating func push(_ value: Float, at index: Int, window: Int) {
            while values.count > head, values[values.count - 1].value >= value { values.removeLast() }
            values.append((index, value))
            while values[head].index <= index - window { head += 1 }
            if head > 1024 {
                values.removeFirst(head)
                head = 0
            }
        }
    }
}
