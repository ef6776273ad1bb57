/// Where to join two independently stretched renderings of neighbouring audio.
///
/// Two stretchers started at different places give the same sound with unrelated phases; a
/// plain crossfade between them can cancel a steady tone for a moment. Like a WSOLA splice, the
/// later rendering is shifted by up to a few milliseconds to where it best matches the earlier
/// one's continuation (highest normalised cross-correlation over the crossfade, all channels
/// together), then crossfaded. A piece whose phases were anchored to continue the earlier one
/// (`PhaseAnchor`) already matches a steady sound; it keeps its place when it matches at least
/// `anchoredMatch` (a periodic sound would otherwise match as well a few periods away, and move).
enum JoinAlignment {
    /// The normalised cross-correlation at which an anchored piece is not shifted (a
    /// crossfade between such renderings dips by 0.02 dB at most).
    static let anchoredMatch = 0.99

    /// The shift in `-maximumShift ... maximumShift` (frames) at which `candidate`, starting at
    /// `maximumShift + shift`, best matches the first `frames` frames of `reference`. Silence
    /// or a tie keeps 0, and so does a match of at least `keeping` at 0.
    static func bestShift(of candidate: AudioBuffer, against reference: AudioBuffer,
                          frames: Int, maximumShift: Int, keeping: Double = .infinity) -> Int {
        let n = min(frames, reference.frameCount)
        guard n > 0, maximumShift > 0, candidate.frameCount >= 2 * maximumShift + n else { return 0 }
        var referenceEnergy = 0.0
        for channel in reference.channels {
            for j in 0..<n { referenceEnergy += Double(channel[j]) * Double(channel[j]) }
        }
        guard referenceEnergy > 0 else { return 0 }
        // Energy of every candidate window from running sums; dot products in SIMD lanes.
        var runningEnergy = [Double](repeating: 0, count: candidate.frameCount + 1)
        for i in 0..<candidate.frameCount {
            var square = 0.0
            for channel in candidate.channels { square += Double(channel[i]) * Double(channel[i]) }
            runningEnergy[i + 1] = runningEnergy[i] + square
        }
        func score(_ offset: Int) -> Double {
            var dot = 0.0
            for (c, channel) in candidate.channels.enumerated() {
                channel.withUnsafeBufferPointer { x in
                    reference.channels[c].withUnsafeBufferPointer { r in
                        dot += Double(dotProduct(x.baseAddress! + offset, r.baseAddress!, n))
                    }
                }
            }
            let energy = max(0, runningEnergy[offset + n] - runningEnergy[offset])
            return energy > 0 ? dot / (energy * referenceEnergy).squareRoot() : 0
        }
        var best = 0, bestScore = score(maximumShift)
        guard bestScore < keeping else { return 0 }
        for shift in -maximumShift...maximumShift where shift != 0 {
            let s = score(maximumShift + shift)
            // Prefer the smaller shift when two are equally good.
            if s > bestScore + 1e-9 || (abs(s - bestScore) <= 1e-9 && abs(shift) < abs(best)) {
                best = shift
                bestScore = s
            }
        }
        return best
    }

    /// Σ a[j]·b[j] for j < n, eight lanes at a time.
    private static func dotProduct(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ n: Int) -> Float {
        var lanes = SIMD8<Float>()
        var j = 0
        while j + 8 <= n {
            lanes += UnsafeRawPointer(a + j).loadUnaligned(as: SIMD8<Float>.self)
                * UnsafeRawPointer(b + j).loadUnaligned(as: SIMD8<Float>.self)
            j += 8
        }
        var sum = lanes.sum()
        while j < n {
            sum += a[j] * b[j]
            j += 1
        }
        return sum
    }
}
