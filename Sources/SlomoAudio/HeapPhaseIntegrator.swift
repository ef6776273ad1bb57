import Foundation

/// Phase Gradient Heap Integration (Průša & Holighaus, "Phase Vocoder Done Right", 2017), one
/// frame at a time: gives each bin of a new frame a synthesis phase that continues the previous
/// frame's in time (instantaneous frequency, trapezoid rule over the output hop) and its
/// loudest neighbour's in frequency (group delay, stretched by 1/rate and clamped to the
/// window), visiting bins from the loudest down so that phase flows outward from spectral
/// peaks. Bins below `tolerance` × the loudest get a random phase.
///
/// A class over buffers it owns: its loop touches every bin a few times a frame, and arrays
/// would check uniqueness and bounds on each touch.
final class HeapPhaseIntegrator {
    /// Quietest bin integrated, relative to the loudest of the two frames.
    static let tolerance: Float = 1e-5
    /// Priority buckets per neper of magnitude (≈ 0.1 dB each).
    static let bucketsPerNeper: Float = 89

    let binCount: Int
    let fftSize: Int
    /// Largest group delay placed in a frame, in output frames (half the window).
    let delayLimit: Float
    private let queue: BucketQueue
    /// The bins of the new frame still without a synthesis phase.
    private let pending: PendingBins
    /// Group delay of each bin of the new frame in output frames, stretched and clamped.
    private let delay: UnsafeMutablePointer<Float>
    private var random = SplitMix(seed: 0x5107_0C0D)

    init(window: PhaseGradientWindow) {
        binCount = window.binCount
        fftSize = window.fftSize
        precondition(fftSize > 0 && fftSize & (fftSize - 1) == 0, "the transform's size is a power of two")
        delayLimit = Float(window.length / 2)
        let buckets = Int((-log(Self.tolerance) * Self.bucketsPerNeper).rounded(.up)) + 1
        queue = BucketQueue(bucketCount: buckets, itemCount: 2 * window.binCount)
        pending = PendingBins(binCount: binCount)
        delay = .allocate(capacity: binCount)
        delay.initialize(repeating: 0, count: binCount)
    }

    deinit { delay.deallocate() }

    func reset() { random = SplitMix(seed: 0x5107_0C0D) }

    /// Radians per bin per frame of delay: phase falls by this much per bin for each frame
    /// the energy lies after the frame's centre.
    private var radiansPerBinFrame: Float { 2 * .pi / Float(fftSize) }

    /// Fills `frame.synthesisPhase` from `previous` (already synthesised, or nil for the
    /// first frame, which keeps its analysis phases).
    func integrate(_ frame: SpectrumFrame, after previous: SpectrumFrame?) {
        let n = binCount
        guard let previous else {
            frame.synthesisPhase.update(from: frame.phase, count: n)
            return
        }
        let hop = frame.outputPosition - previous.outputPosition
        if frame.rate == 1, frame.inputPosition - previous.inputPosition == hop {
            // Rate 1: the analysis phase advance itself, so the input comes out unchanged.
            for k in 0..<n {
                frame.synthesisPhase[k] = wrap(previous.synthesisPhase[k] + frame.phase[k] - previous.phase[k])
            }
            return
        }
        computeDelays(frame)
        let largest = max(frame.largestMagnitude, previous.largestMagnitude)
        guard largest > 0 else {
            for k in 0..<n { frame.synthesisPhase[k] = randomPhase() }
            return
        }
        let floorLog = log(largest * Self.tolerance)
        func priority(_ logMagnitude: Float) -> Int { Int((logMagnitude - floorLog) * Self.bucketsPerNeper) }
        // Bins below tolerance: random phase, never a source of integration.
        var remaining = 0
        pending.removeAll()
        for k in 0..<n {
            if frame.logMagnitude[k] <= floorLog {
                frame.synthesisPhase[k] = randomPhase()
            } else {
                pending.insert(k)
                remaining += 1
            }
        }
        queue.clear()
        for k in 0..<n where previous.logMagnitude[k] > floorLog {
            queue.push(k, priority: priority(previous.logMagnitude[k]))
        }
        let step = radiansPerBinFrame
        let binTurn = 2 * Double.pi / Double(fftSize)
        // In locals, so that the loop does not reload them through `self` at every step.
        let (pending, delay, queue, turnMask) = (pending, delay, queue, fftSize - 1)
        while remaining > 0 {
            guard let item = queue.pop() else {
                // A new island of energy with no past: start it at its analysis phase.
                let loudest = pending.loudest(by: frame.magnitude)!
                pending.remove(loudest)
                remaining -= 1
                frame.synthesisPhase[loudest] = frame.phase[loudest]
                queue.push(n + loudest, priority: priority(frame.logMagnitude[loudest]))
                continue
            }
            if item < n {
                // From the previous frame forward in time.
                let k = item
                guard pending.contains(k) else { continue }
                pending.remove(k)
                remaining -= 1
                // Centre-frequency turn over the hop, exact in integers, plus the deviations; in
                // double precision, so that no rounding recurs frame after frame.
                let centreTurn = binTurn * Double((k * hop) & turnMask)
                let advance = centreTurn + Double(hop) * 0.5 * (Double(previous.deviation[k]) + Double(frame.deviation[k]))
                frame.synthesisPhase[k] = Float(wrap(Double(previous.synthesisPhase[k]) + advance))
                queue.push(n + k, priority: priority(frame.logMagnitude[k]))
            } else {
                // Within the new frame, outward in frequency.
                let k = item - n
                if k + 1 < n && pending.contains(k + 1) {
                    pending.remove(k + 1)
                    remaining -= 1
                    frame.synthesisPhase[k + 1] = wrap(frame.synthesisPhase[k] - step * 0.5 * (delay[k] + delay[k + 1]))
                    queue.push(n + k + 1, priority: priority(frame.logMagnitude[k + 1]))
                }
                if k > 0 && pending.contains(k - 1) {
                    pending.remove(k - 1)
                    remaining -= 1
                    frame.synthesisPhase[k - 1] = wrap(frame.synthesisPhase[k] + step * 0.5 * (delay[k] + delay[k - 1]))
                    queue.push(n + k - 1, priority: priority(frame.logMagnitude[k - 1]))
                }
            }
        }
    }

    /// The group delay of every bin (from the analysis phase across neighbouring bins), in
    /// output frames: the input delay stretched by 1/rate, clamped to half the window.
    private func computeDelays(_ frame: SpectrumFrame) {
        let n = binCount
        let toFrames = Float(fftSize) / (4 * .pi) / Float(frame.rate)
        let limit = delayLimit
        let (phase, delay) = (frame.phase, delay)
        func clamped(_ d: Float) -> Float { min(max(d, -limit), limit) }
        // A centred difference across two bins; at the ends, one across one (half the span).
        delay[0] = clamped(-wrap(phase[1] - phase[0]) * toFrames / 0.5)
        for k in 1..<(n - 1) { delay[k] = clamped(-wrap(phase[k + 1] - phase[k - 1]) * toFrames) }
        delay[n - 1] = clamped(-wrap(phase[n - 1] - phase[n - 2]) * toFrames / 0.5)
    }

    private func randomPhase() -> Float {
        Float(Double(random.next() >> 11) / Double(1 << 53) * 2 * .pi - .pi)
    }
}

/// Deterministic SplitMix64 generator (the same phases for the same input, on every thread).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
