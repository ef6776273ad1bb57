import Foundation

/// The true peak of each frame over all channels, as `TruePeakLimiter` measures it: the
/// sample `taps / 2` frames back and the points a quarter, a half and three quarters after it,
/// interpolated by windowed-sinc filters of `taps` samples (4x oversampling, as ITU-R BS.1770
/// measures true peak). It also keeps each channel's recent samples, so the limiter reads its
/// delayed output from the same memory.
///
/// A frame's interpolation counts only where a sample loud enough to need it is in its window
/// (below `ceiling / overshoot`, no point between samples can reach the ceiling); such frames
/// read 0. The filters run eight frames at a time over contiguous memory (each frame's sum is
/// added tap by tap in the same order as one frame alone would be, so the peaks are those of a
/// plain loop to the bit), only over groups of eight frames that a loud sample reaches.
final class TruePeakScan {
    /// Samples each filter spans.
    static let taps = 12
    /// Frames scanned at a time (a multiple of the eight lanes).
    static let chunk = 1024
    /// Frames kept before each chunk: the filters' history and the limiter's delay.
    let history: Int
    /// How far above its samples an interpolated point can rise (the largest sum of a filter's
    /// |taps|).
    let overshoot: Float
    private let ceiling: Float
    private let channelCount: Int
    /// The three filters (a quarter, a half, three quarters), `taps` coefficients each.
    private let filters: UnsafeMutablePointer<Float>
    /// Per channel, `history` frames then the current chunk (and room for the last lanes).
    private let lines: [UnsafeMutablePointer<Float>]
    /// One channel's interpolated peaks over the current chunk, and its three filters' sums.
    private let channelPeaks: UnsafeMutablePointer<Float>, sums: UnsafeMutablePointer<Float>
    /// Per frame of the current chunk, 1 where its sample is loud; per group of eight frames,
    /// whether a loud sample reaches it, and the last frame reached by the loud samples before it.
    private let loudSamples: UnsafeMutablePointer<UInt8>
    private let reachedGroups: UnsafeMutablePointer<Bool>, reachedFrom: UnsafeMutablePointer<Int>
    /// Per channel, the last frame whose filter window holds a sample loud enough to need it.
    private var loudUntil: [Int]

    /// A scan of `channelCount` channels against `ceiling` (linear), keeping at least `delay`
    /// frames of each channel before the current chunk.
    init(channelCount: Int, ceiling: Float, delay: Int) {
        self.channelCount = channelCount
        self.ceiling = ceiling
        history = max(delay, Self.taps)
        let half = Self.taps / 2
        let filters = UnsafeMutablePointer<Float>.allocate(capacity: 3 * Self.taps)
        for (phase, fraction) in [0.25, 0.5, 0.75].enumerated() {
            let raw = (0..<Self.taps).map { tap -> Double in
                let x = Double(tap - half + 1) - fraction          // offset of sample n + tap − half + 1 from n + fraction
                let sinc = x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
                let window = 0.5 + 0.5 * cos(Double.pi * x / Double(half + 1))
                return sinc * window
            }
            let sum = raw.reduce(0, +)
            for tap in 0..<Self.taps { filters[phase * Self.taps + tap] = Float(raw[tap] / sum) }
        }
        self.filters = filters
        overshoot = (0..<3).map { phase in
            (0..<Self.taps).reduce(Float(0)) { $0 + abs(filters[phase * Self.taps + $1]) }
        }.max()!
        let length = history + Self.chunk
        lines = (0..<channelCount).map { _ in
            let line = UnsafeMutablePointer<Float>.allocate(capacity: length)
            line.initialize(repeating: 0, count: length)
            return line
        }
        channelPeaks = .allocate(capacity: Self.chunk)
        channelPeaks.initialize(repeating: 0, count: Self.chunk)
        sums = .allocate(capacity: 3 * Self.chunk)
        sums.initialize(repeating: 0, count: 3 * Self.chunk)
        loudUntil = Array(repeating: -1, count: channelCount)
        loudSamples = .allocate(capacity: Self.chunk)
        loudSamples.initialize(repeating: 0, count: Self.chunk)
        reachedGroups = .allocate(capacity: Self.chunk / 8)
        reachedGroups.initialize(repeating: false, count: Self.chunk / 8)
        reachedFrom = .allocate(capacity: Self.chunk / 8)
        reachedFrom.initialize(repeating: 0, count: Self.chunk / 8)
    }

    deinit {
        filters.deallocate()
        for line in lines { line.deallocate() }
        channelPeaks.deallocate()
        sums.deallocate()
        loudSamples.deallocate()
        reachedGroups.deallocate()
        reachedFrom.deallocate()
    }

    /// Takes frames `first ..< first + count` (at most `chunk`) of `input` as frames
    /// `start …` of the stream and writes each one's true peak over the channels to `peaks`.
    func scan(_ input: [[Float]], from first: Int, count: Int, frame start: Int, into peaks: UnsafeMutablePointer<Float>) {
        peaks.update(repeating: 0, count: count)
        let groups = (count + 7) / 8
        for channel in 0..<channelCount {
            let line = lines[channel]
            input[channel].withUnsafeBufferPointer { samples in
                (line + history).update(from: samples.baseAddress! + first, count: count)
            }
            // The loud samples (a plain loop the compiler vectorises), then which groups of eight
            // frames one reaches, and how far the last loud sample before each group reaches.
            let current = line + history
            for index in 0..<count { loudSamples[index] = abs(current[index]) * overshoot >= ceiling ? 1 : 0 }
            loudSamples.advanced(by: count).update(repeating: 0, count: groups * 8 - count)
            var loud = loudUntil[channel], reachedAny = false
            for group in 0..<groups {
                reachedFrom[group] = loud
                let flags = UnsafeRawPointer(loudSamples + 8 * group).loadUnaligned(as: UInt64.self)
                reachedGroups[group] = flags != 0 || loud >= start + 8 * group
                reachedAny = reachedAny || reachedGroups[group]
                if flags != 0 { loud = start + 8 * group + (63 - flags.leadingZeroBitCount) / 8 + Self.taps }
            }
            loudUntil[channel] = loud
            guard reachedAny else { continue }
            interpolate(line, count: count)
            for group in 0..<groups where reachedGroups[group] {
                var loud = reachedFrom[group]
                for index in 8 * group ..< min(8 * group + 8, count) {
                    if loudSamples[index] != 0 { loud = start + index + Self.taps }
                    if start + index <= loud { peaks[index] = max(peaks[index], channelPeaks[index]) }
                }
            }
        }
    }

    /// Each frame's own peak in one channel's current chunk, in the groups of eight frames a
    /// loud sample reaches: the sample `taps / 2` back and the three interpolated points after
    /// it. The filters run eight frames at a time; the largest magnitude is taken in a plain
    /// loop the compiler vectorises (the standard library's `pointwiseMax` is a call per lane).
    private func interpolate(_ line: UnsafeMutablePointer<Float>, count: Int) {
        let first = line + history - (Self.taps - 1)        // frame i's filter reads i ..< i + taps
        let window = UnsafeRawPointer(first)
        let stride = MemoryLayout<Float>.stride
        let quarter = sums, half = sums + Self.chunk, threeQuarters = sums + 2 * Self.chunk
        let centre = first + Self.taps - 1 - Self.taps / 2
        for group in Swift.stride(from: 0, to: count, by: 8) where reachedGroups[group / 8] {
            var q = SIMD8<Float>(), h = SIMD8<Float>(), t = SIMD8<Float>()
            for tap in 0..<Self.taps {
                let samples = window.loadUnaligned(fromByteOffset: (group + tap) * stride, as: SIMD8<Float>.self)
                q += SIMD8(repeating: filters[tap]) * samples
                h += SIMD8(repeating: filters[Self.taps + tap]) * samples
                t += SIMD8(repeating: filters[2 * Self.taps + tap]) * samples
            }
            UnsafeMutableRawPointer(quarter + group).storeBytes(of: q, as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(half + group).storeBytes(of: h, as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(threeQuarters + group).storeBytes(of: t, as: SIMD8<Float>.self)
            for index in group..<group + 8 {
                var peak = abs(centre[index])
                peak = max(peak, abs(quarter[index]))
                peak = max(peak, abs(half[index]))
                channelPeaks[index] = max(peak, abs(threeQuarters[index]))
            }
        }
    }

    /// Channel `channel`'s sample `back` frames before the current chunk's end (`count` frames).
    func delayed(_ channel: Int, count: Int, back: Int) -> UnsafePointer<Float> {
        UnsafePointer(lines[channel] + history + count - back)
    }

    /// Keeps the last `history` frames of each channel for the next chunk.
    func advance(by count: Int) {
        for line in lines { line.update(from: line + count, count: history) }
    }
}
