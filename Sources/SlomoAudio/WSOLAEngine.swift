/// slomo's time-domain stretch: WSOLA (waveform-similarity overlap-add). The output is made of
/// sequences of input, each taken where it best continues the sequence before it (searched
/// for in a seek window around where the rate puts it, `SimilaritySearch`) and cross-faded
/// into it over an overlap. Sequences repeat input when slowing down and skip it when speeding
/// up; within a sequence the sound is the input's, so pitch and timbre are kept exactly.
///
/// Frames of the input's timeline map to output frames through the read position: sequence m
/// starts near `seek/2 + m·rate·(sequence − overlap)`, so output frame o holds input from about
/// `seek/2 + rate·o`; onsets are placed there exactly (`nextStart`): each one's first copy
/// plays where the map puts it and none is skipped when speeding up.
final class WSOLAEngine: StretchEngine {
    let channelCount: Int
    private let sampleRate: Int
    /// Output frames to drop at the start: the start pad less the half seek window, at the
    /// first rate.
    private(set) var startDelay = 0
    /// The rate of the input being pushed, and the rate of the input at the read position:
    /// a rate applies to the input pushed after it is set (`rateChanges`: where each later
    /// one starts), so a ramp bends the output exactly where its input is, however far the
    /// sequences lag behind the input.
    private var sequencing: Sequencing
    private var readSequencing: Sequencing
    private var rateChanges: [(from: Int, sequencing: Sequencing)] = []
    private let search: SimilaritySearch
    /// Input not yet behind the read position (and the seek window before it), per channel;
    /// `bufferStart` is the input frame `pending[c][0]` holds.
    private var pending: [[Float]]
    private var bufferStart = 0
    /// Where the next sequence nominally starts, in input frames (fractional, so that the
    /// rate holds exactly over many sequences).
    private var readPosition = 0.0
    /// The end of the last sequence (`overlap` frames a channel), cross-faded into the next,
    /// and pointers to its channels.
    private let tail: PlanarScratch
    private let tailPointers: [UnsafePointer<Float>]
    private var started = false
    /// Input frames pushed (the start pad included), and output frames that input is owed
    /// at the rates it came at.
    private var owedOutput = 0.0
    private var emitted = 0
    /// A sequence's output, before it is appended.
    private let body: PlanarScratch
    /// Onsets of the input (each one's first copy is placed where the map puts it), and the
    /// first one not yet passed.
    private var onsets: OnsetDetector
    private var nextOnset = 0
    /// The input frame past the last onset played (the next one is placed), and the exact
    /// start of the next sequence when an onset fell into the last one's end.
    private var onsetFloor = 0
    private var continuation: Int?

    /// The start pad, in seconds of silence before the input: the search's first sequences
    /// then look before the input's start into silence.
    static let padSeconds = 0.1

    init(sampleRate: Int, channelCount: Int) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        sequencing = Sequencing(tempo: 1, sampleRate: sampleRate)
        readSequencing = sequencing
        search = SimilaritySearch(referenceLength: sequencing.overlap,
                                  longestWindow: Sequencing.longestSeekWindow(sampleRate: sampleRate))
        pending = Array(repeating: [], count: channelCount)
        tail = PlanarScratch(channelCount: channelCount, capacity: sequencing.overlap)
        tailPointers = (0..<channelCount).map { [tail] in UnsafePointer(tail.channel($0)) }
        body = PlanarScratch(channelCount: channelCount, capacity: Sequencing.longestSequence(sampleRate: sampleRate))
        onsets = OnsetDetector(sampleRate: sampleRate, sustain: sampleRate / 200)
    }

    /// The sequence, seek window and overlap for a rate, in frames.
    struct Sequencing: Equatable {
        let tempo: Double
        let sequence: Int, halfSeek: Int, overlap: Int
        var seek: Int { 2 * halfSeek }
        /// Output frames a sequence adds.
        var hop: Int { sequence - overlap }

        /// Slowing below 0.8, 40–45 ms sequences (tuned with SoundTouch, the engine before, when
        /// they kept transients near their place; onsets are now placed, `nextStart`);
        /// elsewhere sequences shorten from 90 ms at 0.5 to 40 ms at 2 and the seek window from
        /// 20 to 15 ms, as common WSOLA tunings do. Overlaps are 8 ms.
        init(tempo: Double, sampleRate: Int) {
            self.tempo = tempo
            let (sequenceMs, seekMs): (Double, Double)
            let longest = Self.longestSequenceMs
            if tempo < 0.5 {
                (sequenceMs, seekMs) = (40, 15)
            } else if tempo < 0.8 {
                (sequenceMs, seekMs) = (45, 20)
            } else {
                let along = (min(max(tempo, 0.5), 2) - 0.5) / 1.5
                (sequenceMs, seekMs) = (longest - 50 * along, 20 - 5 * along)
            }
            let frames = { (ms: Double) in Self.frames(ms, sampleRate: sampleRate) }
            overlap = frames(8)
            sequence = max(frames(sequenceMs), 2 * overlap + 1)
            halfSeek = max(1, frames(seekMs) / 2)
        }

        /// No sequence is longer (the automatic lengths' start, at 0.5).
        private static let longestSequenceMs = 90.0

        static func longestSequence(sampleRate: Int) -> Int { frames(longestSequenceMs, sampleRate: sampleRate) }

        private static func frames(_ ms: Double, sampleRate: Int) -> Int { Int((ms * Double(sampleRate) / 1000).rounded()) }

        static func longestSeekWindow(sampleRate: Int) -> Int {
            Sequencing(tempo: 0.5, sampleRate: sampleRate).seek
        }
    }

    var hop: Int { sequencing.hop }

    func setRate(_ rate: Double) {
        let new = Sequencing(tempo: rate, sampleRate: sampleRate)
        guard new != sequencing else { return }
        sequencing = new
        if started {
            rateChanges.append((bufferStart + pending[0].count, new))
        } else {
            readSequencing = new
        }
    }

    func reset() {
        for c in 0..<channelCount { pending[c].removeAll(keepingCapacity: true) }
        tail.zero(tail.capacity)
        bufferStart = 0
        readSequencing = sequencing
        rateChanges.removeAll()
        onsets.reset()
        nextOnset = 0
        onsetFloor = 0
        continuation = nil
        started = false
        startDelay = 0
        owedOutput = 0
        emitted = 0
    }

    func push(_ input: AudioBuffer, into output: inout PlanarFIFO) {
        if !started { start() }
        append(input)
        render(into: &output)
    }

    func finish(into output: inout PlanarFIFO) {
        if !started { start() }
        // Silence after the input until every frame owed has come out.
        let block = sequencing.sequence + sequencing.seek
        let silence = AudioBuffer(channelCount: channelCount, frameCount: block)
        while Double(emitted) < owedOutput.rounded(.up) {
            append(silence, owed: false)
            render(into: &output)
        }
    }

    private func start() {
        started = true
        readPosition = Double(sequencing.halfSeek)
        let pad = Int(Self.padSeconds * Double(sampleRate))
        startDelay = Int((Double(pad - sequencing.halfSeek) / sequencing.tempo).rounded())
        append(AudioBuffer(channelCount: channelCount, frameCount: pad))
    }

    /// Adds input (owing output for it at the current rate, unless it is the silence that
    /// flushes the end).
    private func append(_ input: AudioBuffer, owed: Bool = true) {
        for c in 0..<channelCount { pending[c].append(contentsOf: input.channels[c]) }
        if owed { owedOutput += Double(input.frameCount) / sequencing.tempo }
        onsets.consume(input) { frame in
            var sum: Float = 0
            for c in 0..<channelCount { sum += pending[c][frame - bufferStart] }
            return sum
        }
    }

    /// Makes every sequence whose seek window and length the pending input covers.
    private func render(into output: inout PlanarFIFO) {
        while true {
            while let change = rateChanges.first, Double(change.from) <= readPosition {
                readSequencing = change.sequencing
                rateChanges.removeFirst()
            }
            let s = readSequencing
            guard let start = nextStart(s) else { break }
            emitSequence(at: start, s, into: &output)
            if s.tempo != 1 { notePlayedOnsets(sequenceStart: bufferStart + start, s) }
            readPosition = inputPosition(afterOutput: Double(s.hop))
        }
        // Keep what later sequences may reach back to (an onset is placed up to a sequence
        // before the read position), and the latest 100 ms (the onset detector places onsets
        // there; a fast rate reads ahead of the input).
        let keepFrom = min(Int(readPosition.rounded(.down)) - sampleRate / 5 - bufferStart,
                           pending[0].count - sampleRate / 10, (continuation ?? .max) - bufferStart)
        if keepFrom > 32768 {
            for c in 0..<channelCount { pending[c].removeFirst(keepFrom) }
            bufferStart += keepFrom
        }
    }

    /// Where the next sequence starts (an index into `pending`), or nil until more input comes:
    /// the continuation of the last one when an onset is in its end; where the next onset lands
    /// at its place when it can; else the best match in the seek window, which ends before
    /// the next onset (so that the onset is not played early).
    private func nextStart(_ s: Sequencing) -> Int? {
        let available = pending[0].count
        if let continued = continuation.map({ $0 - bufferStart }) {
            return continued + s.sequence <= available ? continued : nil
        }
        let nominal = max(0, Int(readPosition.rounded(.down)) - s.halfSeek - bufferStart)
        let onset = s.tempo == 1 ? nil : upcomingOnset()
        if let onset {
            // Output frames from the sequence's start to where the map puts the onset (an onset
            // due in the fade-in goes just after it).
            let place = Int(outputFrames(upTo: Double(onset)).rounded())
            if place < s.sequence {
                let start = onset - max(place, s.overlap + onsetLead) - bufferStart
                if start >= 0 { return start + s.sequence <= available ? start : nil }
            }
        }
        // Slowing down, sequences after an onset start after it while that is at most a
        // sequence ahead of their place: a repeated onset is heard twice (a flam).
        let floor = onsetFloor - bufferStart
        let afterOnset = s.tempo < 1 && floor > nominal && floor - nominal <= s.sequence
        var windowStart = afterOnset ? floor : nominal, window = s.seek
        guard windowStart + s.seek + s.sequence <= available else { return nil }
        if let onset {
            // Sequences before the onset's end before it (reaching back when slowing down).
            let latestStart = onset - onsetLead - s.sequence - bufferStart
            if latestStart < windowStart {
                (windowStart, window) = (max(0, latestStart), 1)
            } else {
                window = min(window, latestStart - windowStart + 1)
            }
        }
        let offset = withPendingPointers(from: windowStart) { candidates in
            // Right after an onset the sound goes on from it (a short one is not stepped over),
            // unless a later start matches better.
            search.bestOffset(reference: tailPointers, candidates: candidates, window: window,
                              preferred: afterOnset ? 0 : nil)
        }
        return windowStart + offset
    }

    /// Output frames the map gives the input from the read position to `position`, at the
    /// rates that input came with (a ramp's rate changes within a sequence).
    private func outputFrames(upTo position: Double) -> Double {
        var frames = 0.0, from = readPosition, tempo = readSequencing.tempo
        for change in rateChanges where Double(change.from) < position {
            frames += (Double(change.from) - from) / tempo
            (from, tempo) = (Double(change.from), change.sequencing.tempo)
        }
        return frames + (position - from) / tempo
    }

    /// The input frame `frames` output frames after the read position, at the rates the input
    /// came with (beyond the input pushed, at the latest rate).
    private func inputPosition(afterOutput frames: Double) -> Double {
        var left = frames, from = readPosition, tempo = readSequencing.tempo
        for change in rateChanges where Double(change.from) > from {
            let span = (Double(change.from) - from) / tempo
            if span >= left { break }
            left -= span
            (from, tempo) = (Double(change.from), change.sequencing.tempo)
        }
        return from + left * tempo
    }

    /// Frames kept before an onset, so that its first rise is not cut or faded.
    private var onsetLead: Int { sampleRate / 1000 }

    /// The first onset not yet played (past `onsetFloor`), as an input frame.
    private func upcomingOnset() -> Int? {
        let found = onsets.onsets
        while nextOnset < found.count && (found[nextOnset].isOffset || found[nextOnset].position < onsetFloor) {
            nextOnset += 1
        }
        return nextOnset < found.count ? found[nextOnset].position : nil
    }

    /// Marks the onsets a sequence played (`onsetFloor`: the next one to place is after
    /// them); one in the sequence's fading end makes the next sequence its exact continuation
    /// (`continuation`), so that the cross-fade joins the same samples and it plays whole.
    private func notePlayedOnsets(sequenceStart: Int, _ s: Sequencing) {
        let found = onsets.onsets
        continuation = nil
        var k = nextOnset
        while k < found.count && found[k].position < sequenceStart + s.sequence {
            if !found[k].isOffset && found[k].position >= sequenceStart {
                if found[k].position >= sequenceStart + s.hop - onsetLead { continuation = sequenceStart + s.hop }
                onsetFloor = max(onsetFloor, found[k].position + onsetLead)
            }
            k += 1
        }
    }

    /// Cross-fades the tail into the sequence starting at `start` (an index into `pending`),
    /// appends it, and keeps its end as the next tail.
    private func emitSequence(at start: Int, _ s: Sequencing, into output: inout PlanarFIFO) {
        let overlap = s.overlap, hop = s.hop
        let step = 1 / Float(overlap)
        for c in 0..<channelCount {
            let tail = tail.channel(c), out = body.channel(c)
            pending[c].withUnsafeBufferPointer { input in
                let source = input.baseAddress! + start
                for i in 0..<overlap {
                    let fadeIn = (Float(i) + 0.5) * step
                    out[i] = tail[i] + (source[i] - tail[i]) * fadeIn
                }
                (out + overlap).update(from: source + overlap, count: hop - overlap)
                tail.update(from: source + hop, count: overlap)
            }
        }
        body.store(hop, into: &output)
        emitted += hop
    }

    /// `use` given a pointer into each channel of `pending`, at `start`.
    private func withPendingPointers<R>(from start: Int, _ use: ([UnsafePointer<Float>]) -> R) -> R {
        var pointers: [UnsafePointer<Float>] = []
        pointers.reserveCapacity(channelCount)
        func next(_ c: Int) -> R {
            if c == channelCount { return use(pointers) }
            return pending[c].withUnsafeBufferPointer { buffer in
                pointers.append(buffer.baseAddress! + start)
                return next(c + 1)
            }
        }
        return next(0)
    }
}
