/// One analysis frame of the phase-gradient engine: every channel's spectrum of the input
/// around input frame `inputPosition`, the reference spectrum's magnitude and phase (the
/// channels' sum: phase is integrated once, on it), and what synthesis derives for the frame
/// placed at output frame `outputPosition`. Buffers are allocated once and reused.
final class SpectrumFrame {
    let binCount: Int
    let channelCount: Int
    var inputPosition = 0
    var outputPosition = 0
    /// The rate its group delays are stretched by: the map's rate where the frame was placed,
    /// or 1 for a frame held near an onset.
    var rate = 1.0
    /// For a frame held after an attack, the output position before which it is silent.
    var silentBefore: Int?
    /// Channel c's spectrum at `spectra + 2·binCount·c` (interleaved re, im).
    let spectra: UnsafeMutablePointer<Float>
    /// The reference spectrum (the channels' sum; channel 0's spectrum for mono).
    let reference: UnsafeMutablePointer<Float>
    let magnitude: UnsafeMutablePointer<Float>
    /// Natural log of `magnitude` (the integration order).
    let logMagnitude: UnsafeMutablePointer<Float>
    /// The reference's analysis phase.
    let phase: UnsafeMutablePointer<Float>
    /// Instantaneous frequency less the bin's centre frequency, in radians per input frame.
    let deviation: UnsafeMutablePointer<Float>
    /// The synthesis phase given to each bin.
    let synthesisPhase: UnsafeMutablePointer<Float>
    /// Each bin's phase advance from the frame analysed at input frame `advanceDeviationFrom`,
    /// less its centre frequency's, per input frame (nil: none measured since this analysis).
    let advanceDeviation: UnsafeMutablePointer<Float>
    var advanceDeviationFrom: Int?
    var largestMagnitude: Float = 0

    init(binCount: Int, channelCount: Int) {
        self.binCount = binCount
        self.channelCount = channelCount
        spectra = .allocate(capacity: 2 * binCount * channelCount)
        reference = channelCount == 1 ? spectra : .allocate(capacity: 2 * binCount)
        magnitude = .allocate(capacity: binCount)
        logMagnitude = .allocate(capacity: binCount)
        phase = .allocate(capacity: binCount)
        deviation = .allocate(capacity: binCount)
        synthesisPhase = .allocate(capacity: binCount)
        advanceDeviation = .allocate(capacity: binCount)
        deviation.initialize(repeating: 0, count: binCount)
    }

    deinit {
        if reference != spectra { reference.deallocate() }
        for p in [spectra, magnitude, logMagnitude, phase, deviation, synthesisPhase, advanceDeviation] { p.deallocate() }
    }

    func spectrum(_ channel: Int) -> UnsafeMutablePointer<Float> { spectra + 2 * binCount * channel }
}
