import Foundation

/// The phase-gradient engine's analysis: a frame's windowed, zero-phase spectra of every
/// channel around its input position, their sum (the reference), and the reference's
/// magnitude and phase. The engine analyses its input with it, and the renderer the input
/// where a piece's phases are anchored (`PhaseAnchor`), so both read the same phases.
struct SpectrumAnalyser {
    let window: PhaseGradientWindow
    /// The transform (its buffers are shared with the engine's synthesis).
    let fft: RealFFT

    init(sampleRate: Int) {
        window = PhaseGradientWindow(sampleRate: sampleRate)
        fft = RealFFT(size: window.fftSize)
    }

    /// Analyses `frame` around `frame.inputPosition`, reading `input[c][i − base]` for input
    /// frame `i`; frames outside `base ..< end` are silence.
    func analyse(_ frame: SpectrumFrame, input: [[Float]], base: Int, end: Int) {
        let n = window.length, half = n / 2, m = window.fftSize, bins = window.binCount
        let start = frame.inputPosition - half
        frame.advanceDeviationFrom = nil
        for c in 0..<frame.channelCount {
            let time = fft.time
            time.update(repeating: 0, count: m)
            input[c].withUnsafeBufferPointer { x in
                window.values.withUnsafeBufferPointer { g in
                    let lo = max(0, base - start), hi = max(lo, min(n, end - start))
                    guard lo < hi, let x = x.baseAddress, let g = g.baseAddress else { return }
                    // Sample i of the window sits at time i − half from its centre: the samples
                    // before the middle wrap to the end of the transform. (Pointers offset once,
                    // so that the loops index plainly and vectorise.)
                    let middle = min(max(half, lo), hi)
                    let sample = x + (start - base), wrapped = time + (m - half), centred = time - half
                    for i in lo..<middle { wrapped[i] = sample[i] * g[i] }
                    for i in middle..<hi { centred[i] = sample[i] * g[i] }
                }
            }
            fft.forward()
            frame.spectrum(c).update(from: fft.spectrum, count: 2 * bins)
        }
        let ref = frame.reference
        if frame.channelCount > 1 {
            ref.update(from: frame.spectrum(0), count: 2 * bins)
            for c in 1..<frame.channelCount {
                let s = frame.spectrum(c)
                for i in 0..<(2 * bins) { ref[i] += s[i] }
            }
        }
        let (magnitude, logMagnitude, phase) = (frame.magnitude, frame.logMagnitude, frame.phase)
        for k in 0..<bins {
            let re = ref[2 * k], im = ref[2 * k + 1]
            let mag = (re * re + im * im).squareRoot()
            magnitude[k] = mag
            logMagnitude[k] = fastLog(mag)
            phase[k] = fastAtan2(im, re)
        }
        var largest: Float = 0
        for k in 0..<bins { largest = max(largest, magnitude[k]) }
        frame.largestMagnitude = largest
    }

    /// `frame.deviation` read against `probe`, an analysis of the input `probe.inputPosition −
    /// frame.inputPosition` frames later: each bin's phase advance less its centre frequency's,
    /// per input frame.
    func measureDeviation(of frame: SpectrumFrame, against probe: SpectrumFrame) {
        let dp = probe.inputPosition - frame.inputPosition
        for k in 0..<window.binCount {
            frame.deviation[k] = Self.deviation(bin: k, from: frame.phase[k], to: probe.phase[k], over: dp,
                                                fftSize: window.fftSize)
        }
    }

    /// Bin `k`'s phase advance from `a` to `b` over `dp` (> 0) input frames, less its centre
    /// frequency's (reduced exactly in integers: `m` is a power of two), per input frame. In
    /// double precision: a rounding of the centre's advance would recur on every frame and
    /// drift a steady tone.
    @inline(__always)
    static func deviation(bin k: Int, from a: Float, to b: Float, over dp: Int, fftSize m: Int) -> Float {
        let centre = 2 * Double.pi / Double(m) * Double((k * dp) & (m - 1))
        return Float(wrap(Double(b) - Double(a) - centre) / Double(dp))
    }
}
