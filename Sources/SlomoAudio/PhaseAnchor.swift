import Foundation

/// The synthesis phases a piece of a split phase-gradient segment gives one of its frames, so
/// that it continues the piece before it (#37 §3).
///
/// Pieces render at the same time, each from its own pre-roll, so each would otherwise start
/// its phases afresh: where two pieces meet, a steady tone would jump in phase, and a crossfade
/// cannot hide a jump that a sine fit measures at 38 dB. Instead every piece is anchored: one
/// frame in its pre-roll gets the phases the piece before it has there. Those follow from the
/// input alone: a steady partial's synthesis phase advances by its frequency on every output
/// frame, whatever the rate, and its frequency is read exactly from how far the input's
/// analysis phase turned between the two anchors (the whole turns counted from a coarse
/// estimate). The renderer computes the anchors in order, before the pieces start; a piece's
/// output after its anchor then continues the earlier piece's, and the crossfade joins two
/// renderings of the same phases. The first piece's anchor is not given but read: the phases
/// its own integration reaches at a frame early in it, once the window of input it reads and
/// the one before are whole (a window cut off by the start of the track would misread the
/// frequency).
struct PhaseAnchor {
    /// The source frame the anchored frame is centred on, and the output frame it is placed
    /// at (absolute).
    let sourceFrame: Int
    let outputFrame: Int
    /// The input's analysis phase there (the channels' sum), per bin.
    let analysisPhase: [Float]
    /// The synthesis phase the frame is given, per bin.
    let synthesisPhase: [Float]

    /// The first piece's anchor: the synthesis phases its frame at `analysis` reached.
    init(first analysis: SpectrumFrame, outputFrame: Int, synthesisPhase: [Float]) {
        sourceFrame = analysis.inputPosition
        self.outputFrame = outputFrame
        analysisPhase = Array(UnsafeBufferPointer(start: analysis.phase, count: analysis.binCount))
        self.synthesisPhase = synthesisPhase
    }

    /// The anchor that continues `previous` at `analysis` (whose `deviation` holds a coarse
    /// frequency estimate) placed at `outputFrame`, for a transform of `fftSize`.
    init(continuing previous: PhaseAnchor, at analysis: SpectrumFrame, outputFrame: Int, fftSize: Int) {
        sourceFrame = analysis.inputPosition
        self.outputFrame = outputFrame
        let bins = analysis.binCount
        analysisPhase = Array(UnsafeBufferPointer(start: analysis.phase, count: bins))
        let inputSpan = Double(sourceFrame - previous.sourceFrame)
        let outputSpan = Double(outputFrame - previous.outputFrame)
        let turn = 2 * Double.pi
        var phases = [Float](repeating: 0, count: bins)
        for k in 0..<bins {
            // The phase turned by less than a whole turn, then as many whole turns as the
            // coarse frequency says: the frequency over the whole span between the anchors.
            let turned = Double(wrap(analysisPhase[k] - previous.analysisPhase[k]))
            let coarse = turn * Double(k) / Double(fftSize) + Double(analysis.deviation[k])
            let wholeTurns = ((coarse * inputSpan - turned) / turn).rounded()
            let frequency = (turned + turn * wholeTurns) / inputSpan
            let phase = Double(previous.synthesisPhase[k]) + frequency * outputSpan
            phases[k] = Float(remainder(phase, turn))
        }
        synthesisPhase = phases
    }
}

/// The anchors of split segments' pieces, made in plan order on the renderer's thread (a
/// piece's anchor continues the previous piece's).
final class PhaseAnchorChain {
    private let analyser: SpectrumAnalyser
    private let frame: SpectrumFrame, probe: SpectrumFrame
    private var last: (planIndex: Int, anchor: PhaseAnchor)?

    init(sampleRate: Int, channelCount: Int) {
        analyser = SpectrumAnalyser(sampleRate: sampleRate)
        frame = SpectrumFrame(binCount: analyser.window.binCount, channelCount: channelCount)
        probe = SpectrumFrame(binCount: analyser.window.binCount, channelCount: channelCount)
    }

    var window: PhaseGradientWindow { analyser.window }

    /// Starts the chain of a split segment at its first piece, plan `planIndex`, whose frame
    /// centred on source frame `sourceFrame` and placed at output frame `outputFrame` reached
    /// `synthesisPhase`; `source` is read from `inputStart` on, where the piece's engine starts
    /// hearing it.
    func start(planIndex: Int, sourceFrame: Int, outputFrame: Int, synthesisPhase: [Float],
               source: any AudioSampleSource, inputStart: Int) throws {
        try analyse(at: sourceFrame, source: source, inputStart: inputStart, probing: false)
        last = (planIndex, PhaseAnchor(first: frame, outputFrame: outputFrame, synthesisPhase: synthesisPhase))
    }

    /// The anchor of plan `planIndex`, the next piece of the segment the chain is at: its frame
    /// centred on source frame `sourceFrame`, placed at output frame `outputFrame`; nil when the
    /// piece before it has no anchor (its first piece ended before the frame it reads).
    func anchor(planIndex: Int, sourceFrame: Int, outputFrame: Int,
                source: any AudioSampleSource, inputStart: Int) throws -> PhaseAnchor? {
        guard let last, last.planIndex == planIndex - 1 else { return nil }
        try analyse(at: sourceFrame, source: source, inputStart: inputStart, probing: true)
        let anchor = PhaseAnchor(continuing: last.anchor, at: frame, outputFrame: outputFrame, fftSize: window.fftSize)
        self.last = (planIndex, anchor)
        return anchor
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
