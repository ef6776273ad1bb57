extension AudioRenderer {
    /// Pieces are at most this long in source time and in output time (memory per piece),
    /// and at least this long in source and output time (each costs a pre-roll and a join).
    static let longestPieceSource = 4.0, longestPieceOutput = 30.0
    static let shortestPieceSource = 0.5, shortestPieceOutput = 0.25

    /// `plan` split into pieces for parallel rendering, or `[plan]` when it is cheap
    /// (copied, varispeed, low-latency) or too short to be worth it. A long enough segment
    /// is split into at least two pieces, more when they would exceed the longest piece.
    /// Splits fall on source frames; `outputFrame` maps a source frame through the segment
    /// exactly, so every piece has its exact share of the segment's frames, and `stretch`
    /// gives its 1/rate there, so every piece has its part of the segment's curve.
    static func pieces(of plan: SegmentPlan, sampleRate: Int, stretch: (Int) -> Double,
                       outputFrame: (Int) throws -> Int) throws -> [SegmentPlan] {
        guard plan.algorithm == .spectral || plan.algorithm == .timeDomain else { return [plan] }
        let sr = Double(sampleRate)
        let sourceLength = plan.sourceEnd - plan.sourceStart
        func count(_ frames: Int, per seconds: Double) -> Double { Double(frames) / (seconds * sr) }
        let wanted = max(2, Int(count(sourceLength, per: longestPieceSource).rounded(.up)),
                         Int(count(plan.frameCount, per: longestPieceOutput).rounded(.up)))
        let allowed = min(Int(count(sourceLength, per: shortestPieceSource)),
                          Int(count(plan.frameCount, per: shortestPieceOutput)))
        let n = min(wanted, allowed)
        guard n >= 2 else { return [plan] }
        let bounds = (0...n).map { plan.sourceStart + sourceLength * $0 / n }
        let samples = plan.stretch.isCurved ? StretchCurve.easedSamples : 2
        var outputs = [plan.outputStart]
        for b in bounds.dropFirst().dropLast() { outputs.append(try outputFrame(b)) }
        outputs.append(plan.outputEnd)
        return (0..<n).map { j in
            var piece = SegmentPlan(outputStart: outputs[j], outputEnd: outputs[j + 1],
                                    sourceStart: bounds[j], sourceEnd: bounds[j + 1],
                                    stretch: StretchCurve(sampling: stretch, from: bounds[j], to: bounds[j + 1], count: samples),
                                    algorithm: plan.algorithm, pieceIndex: j, pieceCount: n)
            piece.pitch = plan.pitch
            return piece
        }
    }
}
