import Foundation

/// Where a piece of a split phase-gradient segment is anchored so that it continues the piece
/// before it (#37 §3), and how its synthesis phases there follow from that piece's.
///
/// Pieces render at the same time, each from its own pre-roll, so each would otherwise start
/// its phases afresh: where two pieces meet, a steady tone would jump in phase, and a crossfade
/// cannot hide a jump that a sine fit measures at 38 dB. Instead every piece is anchored: one
/// frame in its pre-roll gets the phases the piece before it has there. Those follow from the
/// input alone: a steady partial's synthesis phase advances by its frequency on every output
/// frame, whatever the rate, and its frequency is read exactly from how far the input's
/// analysis phase turned between the two anchors (the whole turns counted from a coarse
/// estimate). So each anchor's `advance` over the previous one is known before any piece
/// renders; only the first piece's phases are not given but read: the phases its own
/// integration reaches at a frame early in it, once the window of input it reads and the one
/// before are whole (a window cut off by the start of the track would misread the frequency).
/// `SegmentAnchorPhases` hands them from the first piece to the others as they render.
struct PhaseAnchor {
    /// The source frame the anchored frame is centred on, and the output frame it is placed
    /// at (absolute).
    let sourceFrame: Int
    let outputFrame: Int
    /// The input's analysis phase there (the channels' sum), per bin.
    let analysisPhase: [Float]
    /// How far each bin's synthesis phase turns from the previous piece's anchor to this one
    /// (none for the first piece's).
    let advance: [Double]

    /// The first piece's anchor, at `analysis`.
    init(first analysis: SpectrumFrame, outputFrame: Int) {
        sourceFrame = analysis.inputPosition
        self.outputFrame = outputFrame
        analysisPhase = Array(UnsafeBufferPointer(start: analysis.phase, count: analysis.binCount))
        advance = []
    }

    /// The anchor that continues `previous` at `analysis` (whose `deviation` holds a coarse
    /// frequency estimate) placed at `outputFrame`, for a transform of `fftSize`.
    init(continuing previous: PhaseAnchor, at analysis: SpectrumFrame, outputFrame: Int, fftSize: Int) {
        sourceFrame = analysis.inputPosition
        self.outputFrame = outputFrame
        let bins = analysis.binCount
        let analysisPhase = Array(UnsafeBufferPointer(start: analysis.phase, count: bins))
        self.analysisPhase = analysisPhase
        let inputSpan = Double(sourceFrame - previous.sourceFrame)
        let outputSpan = Double(outputFrame - previous.outputFrame)
        let turn = 2 * Double.pi
        advance = (0..<bins).map { k in
            // The phase turned by less than a whole turn, then as many whole turns as the
            // coarse frequency says: the frequency over the whole span between the anchors.
            let turned = Double(wrap(analysisPhase[k] - previous.analysisPhase[k]))
            let coarse = turn * Double(k) / Double(fftSize) + Double(analysis.deviation[k])
            let wholeTurns = ((coarse * inputSpan - turned) / turn).rounded()
            let frequency = (turned + turn * wholeTurns) / inputSpan
            return frequency * outputSpan
        }
    }

    /// The synthesis phases an anchor gives its frame when the previous piece's anchor had
    /// `previous` and the phases turn by `advance` from there.
    static func synthesisPhase(after previous: [Float], advance: [Double]) -> [Float] {
        zip(previous, advance).map { Float(remainder(Double($0) + $1, 2 * Double.pi)) }
    }
}

/// The anchors of split segments' pieces, made in plan order on the renderer's thread as the
/// pieces are dispatched (a piece's anchor continues the previous piece's).
final class PhaseAnchorChain {
    private let analyser: SpectrumAnalyser
    private let frame: SpectrumFrame, probe: SpectrumFrame
    private var last: (planIndex: Int, anchor: PhaseAnchor, phases: SegmentAnchorPhases)?

    init(sampleRate: Int, channelCount: Int) {
        analyser = SpectrumAnalyser(sampleRate: sampleRate)
        frame = SpectrumFrame(binCount: analyser.window.binCount, channelCount: channelCount)
        probe = SpectrumFrame(binCount: analyser.window.binCount, channelCount: channelCount)
    }

    var window: PhaseGradientWindow { analyser.window }

    /// Starts the chain of a split segment at its first piece, plan `planIndex`, anchored at
    /// its frame centred on source frame `sourceFrame` and placed at output frame
    /// `outputFrame`; `source` is read from `inputStart` on, where the piece's engine starts
    /// hearing it. The first piece tells the phases returned what it reaches there.
    func start(planIndex: Int, sourceFrame: Int, outputFrame: Int,
               source: any AudioSampleSource, inputStart: Int) throws -> SegmentAnchorPhases {
        try analyse(at: sourceFrame, source: source, inputStart: inputStart, probing: false)
        let phases = SegmentAnchorPhases()
        last = (planIndex, PhaseAnchor(first: frame, outputFrame: outputFrame), phases)
        return phases
    }

    /// Anchors plan `planIndex`, the next piece of the segment the chain is at, at its frame
    /// centred on source frame `sourceFrame`, placed at output frame `outputFrame`: the phases
    /// it will find its own in (as piece `pieceIndex`); nil when the chain is at another segment.
    func anchor(planIndex: Int, pieceIndex: Int, sourceFrame: Int, outputFrame: Int,
                source: any AudioSampleSource, inputStart: Int) throws -> SegmentAnchorPhases? {
        guard let last, last.planIndex == planIndex - 1 else { return nil }
        try analyse(at: sourceFrame, source: source, inputStart: inputStart, probing: true)
        let anchor = PhaseAnchor(continuing: last.anchor, at: frame, outputFrame: outputFrame, fftSize: window.fftSize)
        last.phases.add(anchor, piece: pieceIndex)
        self.last = (planIndex, anchor, last.phases)
        return last.phases
    }

    /// Analyses `frame` at `sourceFrame` (silence before `inputStart`), and with `probing` its
    /// coarse deviation against an analysis `probeHop` frames later.
    private func analyse(at sourceFrame: Int, source: any AudioSampleSource, inputStart: Int, probing: Bool) throws {
        let probeHop = PhaseGradientEngine.probeHop
        let from = max(inputStart, sourceFrame - window.length / 2)
        let end = max(from, sourceFrame + window.length / 2 + probeHop)
        let samples = try source.read(from: from, count: end - from).channels
        frame.inputPosition = sourceFrame
        analyser.analyse(frame, input: samples, base: from, end: end)
        guard probing else { return }
        probe.inputPosition = sourceFrame + probeHop
        analyser.analyse(probe, input: samples, base: from, end: end)
        analyser.measureDeviation(of: frame, against: probe)
    }
}
