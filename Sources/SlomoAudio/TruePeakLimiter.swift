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
    /// How far above its samples an interpolated point can rise (the largest sum of a phase's
    /// |taps|): below `ceiling / overshoot`, no point between samples can reach the ceiling.
    private let overshoot: Float
    /// Per channel, the last frame whose interpolation window holds a sample loud enough to need it.
    private var loudUntil: [Int]
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
        overshoot = phases.map { $0.reduce(0) { $0 + abs($1) } }.max()!
        latency = lookahead - 1 + half
        var size = 1
        while size < latency + Self.taps + Self.chunk + 1 { size *= 2 }
        mask = size - 1
        rings = Array(repeating: [Float](repeating: 0, count: size), count: channelCount)
        loudUntil = Array(repeating: -1, count: channelCount)
        recent = [Float](repeating: 1, count: lookahead)
        recentSum = Float(lookahead)
    }

    /// The block, limited, delayed by `latency` frames.
    public func process(_ block: AudioBuffer) -> AudioBuffer {
        precondition(block.channelCount == channelCount, "a limiter takes the channels it was made for")
        return run(block.channels, count: block.frameCount)
    }

    /// The last `latency` frames (of the input's end), limited.
    public func finish() -> AudioBuffer {
        run(Array(repeating: [Float](repeating: 0, count: latency), count: channelCount), count: latency)
    }

    /// Frames taken at a time: the ring holds them beside the delay and the interpolation window.
    private static let chunk = 1024

    /// Takes `count` frames of `input`, a chunk at a time; returns the frames that leave the delay.
    private func run(_ input: [[Float]], count: Int) -> AudioBuffer {
        var out = [[Float]](repeating: [Float](repeating: 0, count: max(0, min(count, written + count - latency))),
                            count: channelCount)
        var produced = 0
        for first in stride(from: 0, to: count, by: Self.chunk) {
            produced += runChunk(input, from: first, count: min(Self.chunk, count - first), into: &out, at: produced)
        }
        return AudioBuffer(planar: out)
    }

    /// `run` for frames `first ..< first + count` (at most `chunk`) of `input`, writing what
    /// leaves the delay into `out` from frame `at`; returns how many frames that is.
    private func runChunk(_ input: [[Float]], from first: Int, count: Int, into out: inout [[Float]], at offset: Int) -> Int {
        let start = written
        // Each frame's true peak over the channels: the sample `half` frames back and the points a
        // quarter, half and three quarters after it, where a loud sample is near enough to matter.
        var peaks = [Float](repeating: 0, count: count)
        for channel in 0..<channelCount {
            var loud = loudUntil[channel]
            input[channel].withUnsafeBufferPointer { samples in
                rings[channel].withUnsafeMutableBufferPointer { ring in
                    for index in 0..<count {
                        let frame = start + index
                        let sample = samples[first + index]
                        ring[frame & mask] = sample
                        if abs(sample) * overshoot >= ceiling { loud = frame + Self.taps }
                        guard frame <= loud else { continue }
                        var peak = abs(ring[(frame - Self.taps / 2) & mask])
                        for phase in phases {
                            var sum: Float = 0
                            for tap in 0..<Self.taps { sum += phase[tap] * ring[(frame - Self.taps + 1 + tap) & mask] }
                            peak = max(peak, abs(sum))
                        }
                        peaks[index] = max(peaks[index], peak)
                    }
                }
            }
            loudUntil[channel] = loud
        }
        // The gain each frame asks for, held over the lookahead, released, averaged.
        let leaving = max(0, min(count, written + count - latency))
        var gains = [Float](repeating: 1, count: leaving)
        var produced = 0
        for index in 0..<count {
            let peak = peaks[index]
            needed.push(peak > ceiling ? ceiling / peak : 1, at: written, window: lookahead)
            released = min(needed.minimum, released + (1 - released) * release)
            recentSum += released - recent[recentIndex]
            recent[recentIndex] = released
            recentIndex = (recentIndex + 1) % lookahead
            written += 1
            guard written > latency else { continue }
            gains[produced] = min(1, recentSum / Float(lookahead))
            produced += 1
        }
        smallestGain = min(smallestGain, gains.min() ?? 1)
        // The delayed frames, each at its gain.
        let firstOut = written - leaving - latency
        for channel in 0..<channelCount {
            for index in 0..<leaving { out[channel][offset + index] = rings[channel][(firstOut + index) & mask] * gains[index] }
        }
        return leaving
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
