import Foundation
@testable import SlomoAudio

/// Shared generators and measurements for the audio quality tests. Every generated signal
/// carries a −100 dBFS noise floor (pitfall 23: perfectly clean tones mislead stretchers).
enum Signals {
    /// Deterministic SplitMix64 generator (the engine's own, for its random phases).
    typealias Random = SplitMix

    /// RMS of the noise floor: −100 dBFS.
    static let noiseRMS = 1e-5

    /// Uniform noise at −100 dBFS RMS (uniform on ±a has RMS a/√3).
    static func noise(frames: Int, seed: UInt64) -> [Float] {
        var rng = Random(seed: seed)
        let a = noiseRMS * 3.0.squareRoot()
        return (0..<frames).map { _ in Float(a * rng.uniform()) }
    }

    /// A sine of `frequency` Hz at `amplitude`, plus the noise floor; every channel the same
    /// tone (with independent noise).
    static func sine(_ frequency: Double, seconds: Double, sampleRate: Int = 48000,
                     channels: Int = 1, amplitude: Double = 0.5, seed: UInt64 = 1) -> AudioBuffer {
        let n = Int((seconds * Double(sampleRate)).rounded())
        let w = 2 * Double.pi * frequency / Double(sampleRate)
        let tone = (0..<n).map { amplitude * sin(w * Double($0)) }
        return AudioBuffer(planar: (0..<channels).map { c in
            let nz = noise(frames: n, seed: seed &+ UInt64(c) &* 7919)
            return (0..<n).map { Float(tone[$0]) + nz[$0] }
        })
    }

    /// Clicks (2 ms Hann-windowed bursts of 3 kHz, peak 0.8) starting at the given frames,
    /// plus the noise floor.
    static func clicks(at positions: [Int], frames: Int, sampleRate: Int = 48000,
                       channels: Int = 1, seed: UInt64 = 2) -> AudioBuffer {
        let len = max(8, sampleRate / 500)
        var mono = noise(frames: frames, seed: seed)
        for p in positions {
            for i in 0..<len where p + i < frames {
                let win = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(len - 1))
                mono[p + i] += Float(0.8 * win * sin(2 * Double.pi * 3000 * Double(i) / Double(sampleRate)))
            }
        }
        return AudioBuffer(planar: Array(repeating: mono, count: channels))
    }

    /// Centre (frame, fractional) of each click: local maxima of a 1 ms smoothed energy
    /// envelope above `threshold` × the largest, at least `minSeparation` frames apart.
    static func detectClicks(_ x: [Float], sampleRate: Int = 48000, threshold: Double = 0.1,
                             minSeparation: Int? = nil) -> [Double] {
        let win = max(4, sampleRate / 1000)
        let sep = minSeparation ?? sampleRate / 20
        var env = [Double](repeating: 0, count: x.count)
        var acc = 0.0
        x.withUnsafeBufferPointer { p in
            for i in 0..<p.count {
                acc += Double(p[i]) * Double(p[i])
                if i >= win { acc -= Double(p[i - win]) * Double(p[i - win]) }
                env[i] = max(acc, 0)
            }
        }
        guard let peak = env.max(), peak > 0 else { return [] }
        var found: [Double] = []
        var i = 0
        while i < env.count {
            if env[i] >= threshold * peak {
                // Take the maximum within the next `sep` frames.
                let end = min(env.count, i + sep)
                var best = i
                for k in i..<end where env[k] > env[best] { best = k }
                // Energy-weighted centre of the window ending at `best`.
                var num = 0.0, den = 0.0
                for k in max(0, best - 2 * win)..<min(env.count, best + 2 * win) {
                    let e = Double(x[k]) * Double(x[k])
                    num += e * Double(k); den += e
                }
                found.append(den > 0 ? num / den : Double(best))
                i = best + sep
            } else {
                i += 1
            }
        }
        return found
    }

    /// Frequency of a (nearly) pure tone from its positive-going zero crossings, each located
    /// by linear interpolation: (crossings − 1) periods over the time between first and last.
    static func frequency(_ x: ArraySlice<Float>, sampleRate: Int = 48000) -> Double {
        var first = -1.0, last = -1.0, count = 0
        // Hysteresis so that the noise floor cannot add crossings.
        var armed = false
        let base = x.startIndex
        x.withUnsafeBufferPointer { p in
            for i in 1..<p.count {
                if p[i - 1] < -1e-3 { armed = true }
                if armed && p[i - 1] < 0 && p[i] >= 0 {
                    let t = Double(i - 1) + Double(-p[i - 1]) / Double(p[i] - p[i - 1])
                    if first < 0 { first = t }
                    last = t
                    count += 1
                    armed = false
                }
            }
        }
        _ = base
        guard count >= 2 else { return 0 }
        return Double(count - 1) / ((last - first) / Double(sampleRate))
    }

    /// Cents between a measured and an expected frequency.
    static func cents(_ measured: Double, _ expected: Double) -> Double {
        1200 * log2(measured / expected)
    }

    /// Least-squares fit of `a·cos ωt + b·sin ωt + c` with ω refined by Gauss–Newton
    /// (the IEEE 1057 four-parameter fit); returns the SNR in dB (fit power / residual power).
    static func sineFitSNR(_ x: ArraySlice<Float>, frequency: Double, sampleRate: Int = 48000) -> Double {
        let n = x.count
        let y = Array(x)
        var w = 2 * Double.pi * frequency / Double(sampleRate)
        var a = 0.0, b = 0.0, c = 0.0
        let t0 = Double(n) / 2   // centre time, for a well-conditioned ω update
        let ata = UnsafeMutablePointer<Double>.allocate(capacity: 16)
        let aty = UnsafeMutablePointer<Double>.allocate(capacity: 4)
        defer { ata.deallocate(); aty.deallocate() }
        for iteration in 0..<6 {
            let k = iteration == 0 ? 3 : 4
            ata.initialize(repeating: 0, count: 16)
            aty.initialize(repeating: 0, count: 4)
            y.withUnsafeBufferPointer { yp in
                // Rotate (cos, sin) by a fixed step instead of calling cos/sin per sample.
                let t = -t0
                var cs = cos(w * t), sn = sin(w * t)
                let dc = cos(w), ds = sin(w)
                for i in 0..<n {
                    let ti = Double(i) - t0
                    let r0 = cs, r1 = sn, r3 = (-a * sn + b * cs) * ti
                    let yi = Double(yp[i])
                    aty[0] += r0 * yi; aty[1] += r1 * yi; aty[2] += yi; aty[3] += r3 * yi
                    ata[0] += r0 * r0; ata[1] += r0 * r1; ata[2] += r0; ata[3] += r0 * r3
                    ata[5] += r1 * r1; ata[6] += r1; ata[7] += r1 * r3
                    ata[10] += 1; ata[11] += r3
                    ata[15] += r3 * r3
                    let ncs = cs * dc - sn * ds
                    sn = sn * dc + cs * ds
                    cs = ncs
                }
            }
            var m = [[Double]](repeating: [Double](repeating: 0, count: k), count: k)
            for p in 0..<k { for q in p..<k { m[p][q] = ata[p * 4 + q]; m[q][p] = ata[p * 4 + q] } }
            guard let s = solve(m, (0..<k).map { aty[$0] }) else { break }
            a = s[0]; b = s[1]; c = s[2]
            if k == 4 {
                w += s[3]
                if abs(s[3]) < 1e-13 { break }
            }
        }
        var signal = 0.0, residual = 0.0
        for i in 0..<n {
            let t = Double(i) - t0
            let fit = a * cos(w * t) + b * sin(w * t)
            signal += fit * fit
            residual += (Double(y[i]) - fit - c) * (Double(y[i]) - fit - c)
        }
        return 10 * log10(signal / max(residual, 1e-30))
    }

    /// Gaussian elimination with partial pivoting.
    static func solve(_ m: [[Double]], _ v: [Double]) -> [Double]? {
        var a = m, b = v
        let n = b.count
        for col in 0..<n {
            guard let p = (col..<n).max(by: { abs(a[$0][col]) < abs(a[$1][col]) }), abs(a[p][col]) > 1e-300
            else { return nil }
            a.swapAt(col, p); b.swapAt(col, p)
            for r in (col + 1)..<n {
                let f = a[r][col] / a[col][col]
                for k in col..<n { a[r][k] -= f * a[col][k] }
                b[r] -= f * b[col]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for r in stride(from: n - 1, through: 0, by: -1) {
            var s = b[r]
            for k in (r + 1)..<n { s -= a[r][k] * x[k] }
            x[r] = s / a[r][r]
        }
        return x
    }

    /// Worst (lowest) sine-fit SNR over consecutive blocks of `block` frames inside `range`.
    static func worstBlockSNR(_ x: [Float], in range: Range<Int>, frequency: Double,
                              sampleRate: Int = 48000, block: Int = 4096) -> Double {
        var worst = Double.infinity
        var s = range.lowerBound
        while s + block <= range.upperBound {
            worst = min(worst, sineFitSNR(x[s..<(s + block)], frequency: frequency, sampleRate: sampleRate))
            s += block
        }
        return worst
    }

    /// RMS level in dB of consecutive windows of `window` frames inside `range`; returns the
    /// deepest dip below the median window level and how many windows dip more than `limit` dB.
    static func envelopeDips(_ x: [Float], in range: Range<Int>, window: Int,
                             limit: Double = 3) -> (deepest: Double, count: Int) {
        var levels: [Double] = []
        var s = range.lowerBound
        while s + window <= range.upperBound {
            var acc = 0.0
            for i in s..<(s + window) { acc += Double(x[i]) * Double(x[i]) }
            levels.append(10 * log10(acc / Double(window) + 1e-30))
            s += window / 2
        }
        guard !levels.isEmpty else { return (0, 0) }
        let median = levels.sorted()[levels.count / 2]
        let dips = levels.map { median - $0 }
        return (dips.max() ?? 0, dips.filter { $0 > limit }.count)
    }

    /// Residual of `y` against `x` in dB relative to `x` (over the common length).
    static func residualDB(_ y: [Float], _ x: [Float]) -> Double {
        let n = min(x.count, y.count)
        var e = 0.0, s = 0.0
        for i in 0..<n {
            let d = Double(y[i]) - Double(x[i])
            e += d * d
            s += Double(x[i]) * Double(x[i])
        }
        return 10 * log10(max(e, 1e-300) / s)
    }

    /// Largest absolute sample-to-sample difference in `range`.
    static func largestJump(_ x: [Float], in range: Range<Int>) -> Float {
        var m: Float = 0
        for i in max(range.lowerBound, 1)..<range.upperBound { m = max(m, abs(x[i] - x[i - 1])) }
        return m
    }

    /// Runs `input` through `processor` in random block sizes (1…`maxBlock`), then finishes.
    static func stream(_ input: AudioBuffer, through processor: any TimePitchProcessor,
                       maxBlock: Int = 4096, seed: UInt64 = 3,
                       onBlock: ((_ pushed: Int, _ delivered: Int) -> Void)? = nil) throws -> AudioBuffer {
        var rng = Random(seed: seed)
        var out = AudioBuffer(channelCount: input.channelCount)
        var start = 0
        while start < input.frameCount {
            let n = min(rng.int(in: 1...maxBlock), input.frameCount - start)
            out.append(try processor.process(input.slice(start..<(start + n))))
            start += n
            onBlock?(start, out.frameCount)
        }
        out.append(processor.finish())
        return out
    }

    /// `round(n / rate)`, half away from zero.
    static func expectedLength(_ n: Int, rate: Double) -> Int {
        Int((Double(n) / rate).rounded(.toNearestOrAwayFromZero))
    }
}

extension Signals {
    /// A `seconds`-long burst of a `frequency` Hz sine at `amplitude`, starting abruptly at
    /// frame `start`, in `frames` frames of the noise floor.
    static func burst(_ frequency: Double, at start: Int, seconds: Double, frames: Int,
                      sampleRate: Int = 48000, amplitude: Double = 0.5) -> AudioBuffer {
        var x = noise(frames: frames, seed: 4)
        let n = Int(seconds * Double(sampleRate))
        let w = 2 * Double.pi * frequency / Double(sampleRate)
        for i in 0..<n where start + i < frames { x[start + i] += Float(amplitude * sin(w * Double(i))) }
        return AudioBuffer(planar: [x])
    }

    /// RMS envelope over `window` frames (a running window ending at each frame).
    static func envelope(_ x: [Float], window: Int) -> [Double] {
        var env = [Double](repeating: 0, count: x.count)
        var acc = 0.0
        for i in 0..<x.count {
            acc += Double(x[i]) * Double(x[i])
            if i >= window { acc -= Double(x[i - window]) * Double(x[i - window]) }
            env[i] = (max(acc, 0) / Double(window)).squareRoot()
        }
        return env
    }

    /// First frame where the 1 ms RMS envelope (centred) reaches `level` (default half, −6 dB)
    /// of its largest value.
    static func onset(_ x: [Float], sampleRate: Int = 48000, level: Double = 0.5) -> Double? {
        let w = sampleRate / 1000
        let env = envelope(x, window: w)
        guard let peak = env.max(), peak > 0, let i = env.firstIndex(where: { $0 >= level * peak }) else { return nil }
        return Double(i) - Double(w) / 2
    }

    /// Last frame where the 1 ms RMS envelope (centred) is still at half its largest value.
    static func end(_ x: [Float], sampleRate: Int = 48000) -> Double? {
        let w = sampleRate / 1000
        let env = envelope(x, window: w)
        guard let peak = env.max(), peak > 0, let i = env.lastIndex(where: { $0 >= 0.5 * peak }) else { return nil }
        return Double(i) - Double(w) / 2
    }

    /// Largest 10 ms RMS level, in dBFS.
    static func peakLevel(_ x: [Float], sampleRate: Int = 48000) -> Double {
        20 * log10(envelope(x, window: sampleRate / 100).max() ?? 0)
    }
}

extension SplitMix {
    /// Uniform in [−1, 1).
    mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 52) - 1 }
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}
