/// Finds onsets in a stream of audio: where the energy of 1 ms blocks jumps by ≥ 18 dB over
/// the loudest block of the 30 ms before. An onset is *sustained* when the energy is still
/// high `sustain` frames later (a burst, a note, a hit that rings — not a click that is over
/// at once). Each onset is placed on the first frame of the jump that rises clearly above what
/// came before it. It also finds the ends of sustained sounds (offsets): where energy that
/// stayed within 12 dB for `sustain` frames falls by ≥ 18 dB and stays down as long.
///
/// The phase-gradient engine keeps frames from straddling onsets and offsets at extreme
/// slow-downs (sustained ones) and onsets when speeding up (all), so that attacks and stops
/// land on their mapped time.
struct OnsetDetector {
    let blockLength: Int
    /// How long after the onset the energy must still be high.
    let sustain: Int
    private static let jump = 60.0  // ≈ 17.8 dB
    private static let history = 30
    private static let quietest = 1e-8  // mean square, −80 dBFS

    /// Mean square of every block from `firstBlock` on (channels summed).
    private var energies: [Double] = []
    private var firstBlock = 0
    /// Mean square of the partial block being filled.
    private var partial = 0.0
    private var partialCount = 0
    /// Next block to examine, and the first block that may start a new onset.
    private var nextBlock = 0
    private var quietUntil = 0
    /// An onset or offset: its input frame, and whether the energy stays high after an onset.
    struct Onset {
        let position: Int
        let sustained: Bool
        /// The end of a sustained sound rather than a start.
        var isOffset = false
    }
    /// Onsets found, in order.
    private(set) var onsets: [Onset] = []

    init(sampleRate: Int, sustain: Int) {
        blockLength = max(8, sampleRate / 1000)
        self.sustain = sustain
    }

    /// How far before a frame the detector must have heard the input to find the same onsets
    /// and offsets there as with all of it: the blocks it compares a block with, and the quiet
    /// after an onset (which a pre-roll's start, heard as an onset after silence, imposes).
    var memory: Int { (max(Self.history, sustain / blockLength) + 1) * blockLength + sustain }

    mutating func reset() {
        energies.removeAll(keepingCapacity: true)
        firstBlock = 0
        partial = 0
        partialCount = 0
        nextBlock = 0
        quietUntil = 0
        onsets.removeAll()
    }

    /// Takes the next frames of the input, then examines every block whose sustain is known.
    /// `sample(i)` gives the channels' sum at absolute input frame `i` (to place an onset).
    mutating func consume(_ buffer: AudioBuffer, sample: (Int) -> Float) {
        for i in 0..<buffer.frameCount {
            var s: Float = 0
            for c in 0..<buffer.channelCount { s += buffer.channels[c][i] }
            partial += Double(s) * Double(s)
            partialCount += 1
            if partialCount == blockLength {
                energies.append(partial / Double(blockLength))
                partial = 0
                partialCount = 0
            }
        }
        examine(upTo: firstBlock + energies.count, sample: sample)
    }

    /// Examines every remaining block, as if silence followed.
    mutating func finish(sample: (Int) -> Float) {
        let padding = sustain / blockLength + 2
        examine(upTo: firstBlock + energies.count + padding, sample: sample)
    }

    private func energy(_ block: Int) -> Double {
        let i = block - firstBlock
        return i >= 0 && i < energies.count ? energies[i] : 0
    }

    /// The end of a sustained sound at block `k`: the `sustain` frames before stayed within
    /// 12 dB of their loudest, and block `k` and the `sustain` frames after are all ≥ 18 dB
    /// below it. Placed after the last frame of blocks k−1 … k still clearly above the quiet.
    private func offset(at k: Int, sustainBlocks: Int, sample: (Int) -> Float) -> Onset? {
        guard k > sustainBlocks, energy(k - 1) > Self.quietest else { return nil }
        var held = 0.0, lowest = Double.infinity
        for b in (k - sustainBlocks)..<k { held = max(held, energy(b)); lowest = min(lowest, energy(b)) }
        guard lowest >= held / 16 else { return nil }
        var after = 0.0
        for b in k...(k + sustainBlocks) { after = max(after, energy(b)) }
        guard held > Self.jump * after else { return nil }
        let threshold = Float(max(16 * after, held / 100).squareRoot())
        var end = k * blockLength
        for i in stride(from: (k + 1) * blockLength - 1, through: (k - 1) * blockLength, by: -1) where abs(sample(i)) > threshold {
            end = i + 1
            break
        }
        return Onset(position: end, sustained: true, isOffset: true)
    }

    private mutating func examine(upTo available: Int, sample: (Int) -> Float) {
        let sustainBlocks = sustain / blockLength
        while nextBlock + sustainBlocks + 2 <= available {
            let k = nextBlock
            nextBlock += 1
            if let offset = offset(at: k, sustainBlocks: sustainBlocks, sample: sample) {
                onsets.append(offset)
                continue
            }
            guard k >= quietUntil else { continue }
            let e = energy(k)
            guard e > Self.quietest else { continue }
            var before = 0.0
            for b in max(0, k - Self.history)..<k { before = max(before, energy(b)) }
            guard e > Self.jump * before else { continue }
            // Sustained: the energy around `sustain` later is within 12 dB of the onset's.
            let attack = max(e, energy(k + 1), energy(k + 2))
            let later = (energy(k + sustainBlocks - 1) + energy(k + sustainBlocks) + energy(k + sustainBlocks + 1)) / 3
            // The first frame of blocks k−1 … k that rises well above the past.
            let threshold = Float(max(16 * before, attack / 100).squareRoot())
            var onset = k * blockLength
            for i in ((k - 1) * blockLength)..<((k + 1) * blockLength) where i >= 0 && abs(sample(i)) > threshold {
                onset = i
                break
            }
            onsets.append(Onset(position: onset, sustained: later >= attack / 16))
            quietUntil = k + sustainBlocks
        }
        // Keep the history the next examinations need.
        let keep = nextBlock - max(Self.history, sustainBlocks) - 1
        if keep - firstBlock > 4096 {
            energies.removeFirst(keep - firstBlock)
            firstBlock = keep
        }
    }
}
