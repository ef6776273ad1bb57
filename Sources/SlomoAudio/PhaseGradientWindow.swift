import Foundation

/// The analysis and synthesis window of the phase-gradient engine and the sizes that go with
/// it: a truncated Gaussian of `length` frames (σ = 0.12 · length), transformed zero-padded to
/// `fftSize` = 2 · `length` so that the group delay read across neighbouring bins is
/// unambiguous over the whole window. The length scales with the sample rate (2048 at 44.1
/// and 48 kHz, a power of two); frames are `baseHop` = length / 8 apart on the side that is
/// stretched (output for slow-downs, input for speed-ups).
struct PhaseGradientWindow {
    let length: Int
    let fftSize: Int
    let baseHop: Int
    /// Window values, `length` of them, centred on `length / 2`.
    let values: [Float]
    /// Squared window values (the overlap-add normalisation).
    let squares: [Float]

    init(sampleRate: Int) {
        // 2048 at 32–64 kHz, halved or doubled per octave beyond (at least 256).
        let octaves = (log2(Double(sampleRate) / 48000)).rounded()
        length = max(256, Int(2048 * pow(2, octaves)))
        fftSize = 2 * length
        baseHop = length / 8
        let sigma = 0.12 * Double(length)
        let centre = Double(length / 2)
        values = (0..<length).map { i in
            let t = (Double(i) - centre) / sigma
            return Float(exp(-0.5 * t * t))
        }
        squares = values.map { $0 * $0 }
    }

    /// Bins of the real spectrum.
    var binCount: Int { fftSize / 2 + 1 }
}
