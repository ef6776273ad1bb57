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
    /// Each frame's true peak, and the input kept for the delay.
    private let scan: TruePeakScan
    private var written = 0
    private var needed: SlidingMinimum
    private var released: Float = 1
    /// Released gains over the lookahead, for their mean, and how many of them are below 1.
    private let recent: UnsafeMutablePointer<Float>
    private var recentSum: Float
    private var recentIndex = 0, recentLowered = 0
    /// The last frame whose peak asked for a gain below 1.
    private var lastAsked = Int.min / 2
    private var smallestGain: Float = 1
    /// The current chunk's peaks, and the gains of the frames that leave the delay.
    private let peaks: UnsafeMutablePointer<Float>, gains: UnsafeMutablePointer<Float>

    /// A limiter for `channelCount` channels at `sampleRate`, holding true peaks below
    /// `ceiling` dBTP.
    public init(sampleRate: Int, channelCount: Int, ceiling: Double = -1) {
        self.ceiling = Float(pow(10, ceiling / 20))
        lookahead = max(1, Int((0.005 * Double(sampleRate)).rounded()))
        release = Float(1 - exp(-1 / (0.150 * Double(sampleRate))))
        self.channelCount = channelCount
        latency = lookahead - 1 + TruePeakScan.taps / 2
        scan = TruePeakScan(channelCount: channelCount, ceiling: self.ceiling, delay: latency)
        needed = SlidingMinimum(window: lookahead)
        recent = .allocate(capacity: lookahead)
        recent.initialize(repeating: 1, count: lookahead)
        recentSum = Float(lookahead)
        peaks = .allocate(capacity: TruePeakScan.chunk)
        gains = .allocate(capacity: TruePeakScan.chunk)
    }

    deinit {
        recent.deallocate()
        peaks.deallocate()
        gains.deallocate()
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

    /// Takes `count` frames of `input`, a chunk at a time; returns the frames that leave the delay.
    private func run(_ input: [[Float]], count: Int) -> AudioBuffer {
        var out = [[Float]](repeating: [Float](repeating: 0, count: max(0, min(count, written + count - latency))),
                            count: channelCount)
        var produced = 0
        for first in stride(from: 0, to: count, by: TruePeakScan.chunk) {
            produced += runChunk(input, from: first, count: min(TruePeakScan.chunk, count - first), into: &out, at: produced)
        }
        return AudioBuffer(planar: out)
    }

    /// `run` for frames `first ..< first + count` (at most a chunk) of `input`, writing what
    /// leaves the delay into `out` from frame `at`; returns how many frames that is.
    private func runChunk(_ input: [[Float]], from first: Int, count: Int, into out: inout [[Float]], at offset: Int) -> Int {
        scan.scan(input, from: first, count: count, frame: written, into: peaks)
        let leaving = max(0, min(count, written + count - latency))
        var unchanged = false
        if released == 1, recentLowered == 0, written - lastAsked > lookahead, (0..<count).allSatisfy({ peaks[$0] <= ceiling }) {
            unchanged = passChunk(count, leaving: leaving) == 1
        } else {
            limitChunk(count)
        }
        // The delayed frames, each at its gain (copied where every gain is 1).
        for channel in 0..<channelCount {
            let delayed = scan.delayed(channel, count: count, back: leaving + latency)
            out[channel].withUnsafeMutableBufferPointer { samples in
                let target = samples.baseAddress! + offset
                if unchanged { return target.update(from: delayed, count: leaving) }
                for index in 0..<leaving { target[index] = delayed[index] * gains[index] }
            }
        }
        scan.advance(by: count)
        return leaving
    }

    /// The gains of a chunk in which no frame asks for less than 1 and none was lowered within
    /// the lookahead: what `limitChunk` would give, without its steps, each of which would change
    /// nothing (released stays at 1, every recent gain is 1, their sum and mean stay as they are).
    /// Returns the chunk's one gain.
    private func passChunk(_ count: Int, leaving: Int) -> Float {
        needed.push(1, at: written + count - 1)        // as the chunk's pushes of 1 would leave it
        recentIndex = (recentIndex + count) % lookahead
        written += count
        let mean = min(1, recentSum / Float(lookahead))
        gains.update(repeating: mean, count: leaving)
        if leaving > 0 { smallestGain = min(smallestGain, mean) }
        return mean
    }

    /// The gain each frame of the chunk asks for, held over the lookahead, released, averaged,
    /// for the frames that leave the delay (in locals: a class's stored properties are checked
    /// for exclusive access at every change). Steps that would change nothing are skipped: a
    /// release from 1 to 1, a sum that gains 0, the mean of an unchanged sum.
    private func limitChunk(_ count: Int) {
        var written = self.written, released = self.released, recentSum = self.recentSum, needed = self.needed
        var recentIndex = self.recentIndex, recentLowered = self.recentLowered, lastAsked = self.lastAsked
        var smallestGain = self.smallestGain
        var meanOf = recentSum, mean = min(1, recentSum / Float(lookahead))
        var produced = 0
        for index in 0..<count {
            let peak = peaks[index]
            if peak > ceiling { lastAsked = written }
            needed.push(peak > ceiling ? ceiling / peak : 1, at: written)
            let minimum = needed.minimum
            if released != 1 || minimum != 1 { released = min(minimum, released + (1 - released) * release) }
            let leavingGain = recent[recentIndex]
            if released != leavingGain {
                recentSum += released - leavingGain
                recent[recentIndex] = released
                recentLowered += (released != 1 ? 1 : 0) - (leavingGain != 1 ? 1 : 0)
            }
            recentIndex += 1
            if recentIndex == lookahead { recentIndex = 0 }
            written += 1
            guard written > latency else { continue }
            if recentSum != meanOf { (meanOf, mean) = (recentSum, min(1, recentSum / Float(lookahead))) }
            gains[produced] = mean
            smallestGain = min(smallestGain, mean)
            produced += 1
        }
        (self.written, self.released, self.recentSum, self.needed) = (written, released, recentSum, needed)
        (self.recentIndex, self.recentLowered, self.lastAsked, self.smallestGain) = (recentIndex, recentLowered, lastAsked, smallestGain)
    }
}
