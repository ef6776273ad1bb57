import Foundation
@testable import SlomoAudio
import SlomoCore
import Testing

/// How the pieces of a split phase-gradient segment start together (#37 §4): later pieces wait
/// for the first piece's anchored phases only at their own anchored frame, work them out anchor
/// by anchor in any order, and are released when the first piece has none; an anchored piece
/// feeds only the pre-roll its anchored frame reads.
@Suite("Anchored pieces")
struct PieceAnchoringTests {
    static let bins = 5

    /// An analysis of a frame at `position` whose phases and deviations are `seed`-dependent.
    static func analysis(at position: Int, seed: Float) -> SpectrumFrame {
        let frame = SpectrumFrame(binCount: bins, channelCount: 1)
        frame.inputPosition = position
        for k in 0..<bins {
            frame.phase[k] = wrap(seed * Float(k + 1) * 0.7)
            frame.deviation[k] = 0.001 * Float(k) * seed
        }
        return frame
    }

    /// Three anchors a second apart, and the phases each later piece must get when the first
    /// has `first`: each piece's from the one before, in order.
    static func chain(first: [Float]) -> (anchors: [PhaseAnchor], expected: [[Float]]) {
        var anchors = [PhaseAnchor(first: analysis(at: 1000, seed: 1), outputFrame: 2000)]
        for piece in 1...3 {
            anchors.append(PhaseAnchor(continuing: anchors[piece - 1], at: analysis(at: 1000 + 48000 * piece, seed: Float(piece + 1)),
                                       outputFrame: 2000 + 96000 * piece, fftSize: 4096))
        }
        var expected = [first]
        for piece in 1...3 { expected.append(PhaseAnchor.synthesisPhase(after: expected[piece - 1], advance: anchors[piece].advance)) }
        return (anchors, expected)
    }

    /// Asks for `pieces`' phases, each on a thread of its own, and returns what each got, or
    /// nil for any still waiting after `timeout` seconds.
    static func ask(_ phases: SegmentAnchorPhases, for pieces: [Int], whileDoing act: () -> Void,
                    timeout: Double = 10) -> [Int: [Float]?]? {
        let results = NSLock()
        nonisolated(unsafe) var got: [Int: [Float]?] = [:]
        let group = DispatchGroup()
        for piece in pieces {
            group.enter()
            Thread.detachNewThread {
                let answer = phases.phases(forPiece: piece)
                results.withLock { got[piece] = .some(answer) }
                group.leave()
            }
        }
        act()
        guard group.wait(timeout: .now() + timeout) == .success else { return nil }
        return results.withLock { got }
    }

    @Test("later pieces wait for the first piece's phases and work theirs out anchor by anchor, in any order")
    func laterPiecesFollowTheFirst() throws {
        let first: [Float] = [0.1, -2.0, 3.0, 0.5, -0.4]
        let (anchors, expected) = Self.chain(first: first)
        let phases = SegmentAnchorPhases()
        for piece in 1...3 { phases.add(anchors[piece], piece: piece) }
        // Pieces 3 and 1 ask before the first piece has told (they must wait), piece 2 after.
        let waiting = Self.ask(phases, for: [3, 1]) {
            Thread.sleep(forTimeInterval: 0.2)
            phases.tell(first)
        }
        let got = try #require(waiting, "a piece still waited 10 s after the first piece told its phases")
        #expect(got[1] == .some(expected[1]))
        #expect(got[3] == .some(expected[3]))
        #expect(phases.phases(forPiece: 2) == expected[2])
        // The advance is a whole span's frequency times the output span: not a no-op.
        #expect(expected[1] != first && expected[2] != expected[1])
    }

    @Test("a first piece that ends before its anchor releases the pieces waiting for it, unanchored")
    func aFirstPieceWithoutPhasesReleasesTheOthers() throws {
        let (anchors, _) = Self.chain(first: Array(repeating: 0, count: Self.bins))
        let phases = SegmentAnchorPhases()
        for piece in 1...2 { phases.add(anchors[piece], piece: piece) }
        let waiting = Self.ask(phases, for: [1, 2]) {
            Thread.sleep(forTimeInterval: 0.2)
            phases.tell(nil)
            phases.tell(Array(repeating: 1, count: Self.bins))   // too late: only the first word counts
        }
        let got = try #require(waiting, "a piece still waited 10 s after the first piece said it had no phases")
        #expect(got[1] == .some(nil) && got[2] == .some(nil))
    }

    /// The frames before a piece's anchored frame reach nothing it keeps, so a later piece of a
    /// split phase-gradient segment feeds only what its anchored frame and the frame before it
    /// read (and the onset detector's memory where onsets are held): less than the 8192 frames
    /// every other segment gets, and still enough for whole windows, at every rate.
    @Test("an anchored piece's pre-roll holds its anchored frame's windows and no more than it needs",
          arguments: [0.125, 0.25, 0.5, 1.5, 2, 4])
    func anchoredPreroll(rate: Double) throws {
        let sr = 48000
        let seconds: Int64 = 20
        let end = MediaTime(seconds: Rational(seconds))
        let map = try TimeMap(sections: [Section(.zero..<end, rate: Rate(floatLiteral: rate))], clipDuration: end)
        let renderer = try AudioRenderer(map: map, source: InMemoryAudioSource(Signals.sine(440, seconds: Double(seconds), sampleRate: sr)),
                                         sampleRate: sr, algorithm: .spectral)
        let pieces = renderer.plans.filter { $0.pieceCount > 1 }
        try #require(pieces.count >= 2)
        #expect(renderer.preroll(for: pieces[0]) == AudioRenderer.prerollFrames)
        let later = pieces[1], preroll = renderer.preroll(for: later)
        #expect(preroll < AudioRenderer.prerollFrames || rate > 2)
        // Where SegmentRendering anchors it: the frame whose window ends where its output, less
        // the alignment lead, begins; it and the frame before it must read inside the pre-roll.
        let window = PhaseGradientWindow(sampleRate: sr), half = window.length / 2
        let hop = max(1, Int((Double(window.baseHop) / max(rate, 1)).rounded()))
        let prerollOutput = Int((Double(preroll) / rate).rounded())
        let anchored = prerollOutput - renderer.maximumAlignmentShift - half
        let before = Int((Double(anchored - hop) * rate).rounded())
        print("spectral \(rate)x: anchored pieces feed \(preroll) frames of pre-roll (others \(AudioRenderer.prerollFrames)); "
              + "the frame before the anchored one reads from frame \(before - half) of it")
        #expect(before - half >= 0)
        if !PhaseGradientEngine.holdsOnsets(at: rate) { #expect(before - half < window.length / 2 + hop) }
    }
}
