import SlomoConcurrency

/// The synthesis phases of one split segment's anchored frames, handed between its pieces as
/// they render on their own threads: the first piece tells what its integration reached at its
/// anchor (or that it ended before it), and every later piece's phases follow from them, anchor
/// by anchor (`PhaseAnchor.synthesisPhase(after:)`). So all pieces start at once: a later piece
/// renders its pre-roll meanwhile and waits, at its anchored frame, only for the first piece to
/// have read its own (a few frames into it).
///
/// Phases are worked out in piece order by whichever piece asks first, and forgotten once their
/// piece has taken them and the next piece's are worked out.
final class SegmentAnchorPhases: Sendable {
    private struct State {
        /// The first piece's phases: nil until it tells, `.some(nil)` when it has none.
        var first: [Float]?? = nil
        /// Each later piece's advance over the piece before, until its phases are worked out.
        var advances: [Int: [Double]] = [:]
        /// Phases worked out, by piece, and the last piece they are worked out for.
        var resolved: [Int: [Float]] = [:]
        var last = 0
        /// Pieces that have taken their phases.
        var taken: Set<Int> = []
    }
    private let state = Guarded(State())

    /// Anchors piece `piece` (1, 2, …) to the piece before it with `anchor`, before it renders.
    func add(_ anchor: PhaseAnchor, piece: Int) {
        let advance = anchor.advance
        state.withLock { $0.advances[piece] = advance }
    }

    /// The first piece's phases at its anchor, or nil when it ended before it; only the first
    /// call counts (a piece that stops rendering tells nil whether or not it told before).
    func tell(_ phases: [Float]?) {
        state.withLock { state in
            guard state.first == nil else { return }
            state.first = .some(phases)
            if let phases { state.resolved[0] = phases }
        }
    }

    /// The phases of piece `piece` (1, 2, …), once the first piece has told its own (waits until
    /// then); nil when it has none.
    func phases(forPiece piece: Int) -> [Float]? {
        state.wait(until: { $0.first != nil }) { state -> [Float]? in
            guard state.first! != nil else { return nil }
            while state.last < piece {
                let next = state.last + 1
                guard let advance = state.advances.removeValue(forKey: next), let before = state.resolved[state.last] else {
                    preconditionFailure("piece \(next) of a split segment asked for its phases before it was anchored")
                }
                state.resolved[next] = PhaseAnchor.synthesisPhase(after: before, advance: advance)
                if state.last == 0 || state.taken.remove(state.last) != nil { state.resolved[state.last] = nil }
                state.last = next
            }
            guard let phases = state.resolved[piece] else {
                preconditionFailure("piece \(piece) of a split segment asked for its phases twice")
            }
            if piece < state.last { state.resolved[piece] = nil } else { state.taken.insert(piece) }
            return phases
        }
    }
}
