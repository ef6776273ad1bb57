import Foundation
import SlomoCore
import Testing
@testable import SlomoAudio

/// Where a long spectral segment is split into pieces that render at the same time, the
/// phase-gradient engine's pieces are anchored to continue each other's phases (`PhaseAnchor`),
/// so a steady tone goes on as if one stretcher had rendered it (#37 §3: joins measured
/// 31.6–54.7 dB before).
@Suite("Spectral piece joins")
struct SpectralJoinTests {
    /// Sine-fit SNR of consecutive 4096-frame blocks, worst of those within 20 ms of a piece
    /// join and worst of the others (infinity where none was fitted).
    struct BlockSNR {
        var atJoins = Double.infinity, elsewhere = Double.infinity, joins = 0
    }

    static func map(seconds: Int64, sections: [Section]) throws -> TimeMap {
        try TimeMap(sections: sections, clipDuration: MediaTime(seconds: Rational(seconds)))
    }

    static func whole(_ seconds: Int64, rate: Rational) throws -> [Section] {
        [try Section(.zero..<MediaTime(seconds: Rational(seconds)), rate: Rate(rate))]
    }

    /// Renders a steady `frequency` tone of `seconds` through `sections` and measures its blocks
    /// (the first and last half second left out: the stretcher starts and ends there); with
    /// `onlyJoins` only blocks near joins are fitted.
    static func measure(frequency: Double, seconds: Int64, sections: [Section], sampleRate: Int,
                        onlyJoins: Bool = false) throws -> BlockSNR {
        let input = Signals.sine(frequency, seconds: Double(seconds), sampleRate: sampleRate)
        let r = try AudioRenderer(map: try map(seconds: seconds, sections: sections), source: InMemoryAudioSource(input),
                                  sampleRate: sampleRate, algorithm: .spectral)
        let joins = zip(r.plans, r.plans.dropFirst()).filter { $1.pieceIndex > 0 }.map { $1.outputStart }
        let out = try r.renderAll().channels[0]
        let block = 4096, near = sampleRate / 50
        var result = BlockSNR(joins: joins.count)
        var s = sampleRate / 2
        while s + block <= out.count - sampleRate / 2 {
            let atJoin = joins.contains { $0 + near > s && $0 - near < s + block }
            if atJoin || !onlyJoins {
                let snr = Signals.sineFitSNR(out[s..<(s + block)], frequency: frequency, sampleRate: sampleRate)
                if atJoin { result.atJoins = min(result.atJoins, snr) } else { result.elsewhere = min(result.elsewhere, snr) }
            }
            s += block
        }
        return result
    }

    static func fmt(_ x: Double) -> String { x.isFinite ? String(format: "%.1f", x) : "-" }

    @Test("every block of a steady 6 s tone is at least 60 dB, piece joins included", arguments: [48000, 44100])
    func steadyTones(sampleRate: Int) throws {
        var worst = Double.infinity
        for f in [110.0, 1000, 5000] {
            for rate in [Rational(1, 8), Rational(1, 4), Rational(1, 2), Rational(2), Rational(4)] {
                let m = try Self.measure(frequency: f, seconds: 6, sections: try Self.whole(6, rate: rate), sampleRate: sampleRate)
                print("spectral \(Int(f)) Hz at \(rate)x, \(sampleRate) Hz, \(m.joins) piece join(s): worst block "
                      + "\(Self.fmt(m.atJoins)) dB at joins, \(Self.fmt(m.elsewhere)) dB elsewhere (bar 60)")
                #expect(m.joins >= 1)
                #expect(min(m.atJoins, m.elsewhere) >= 60, "\(f) Hz at \(rate)x, \(sampleRate) Hz")
                worst = min(worst, m.atJoins, m.elsewhere)
            }
        }
        print("spectral steady tones at \(sampleRate) Hz: worst block \(Self.fmt(worst)) dB")
    }

    /// A ramp's pieces are anchored too: a steady tone keeps its pitch through a slow-down
    /// ramp, and the blocks at the ramp's own piece joins stay at 60 dB.
    @Test("a tone through a ramp split into pieces keeps 60 dB at the joins")
    func rampedJoins() throws {
        let ramped = [try Section(MediaTime(seconds: Rational(1, 2))..<MediaTime(seconds: Rational(11, 2)), rate: Rate(Rational(1, 4)),
                                  ramp: MediaTime(seconds: Rational(2)))]
        for f in [440.0, 3000] {
            let m = try Self.measure(frequency: f, seconds: 6, sections: ramped, sampleRate: 48000, onlyJoins: true)
            print("spectral \(Int(f)) Hz through a 2 s ramp to 0.25x, \(m.joins) piece joins: worst block at joins "
                  + "\(Self.fmt(m.atJoins)) dB (bar 60)")
            #expect(m.joins >= 3)
            #expect(m.atJoins >= 60)
        }
    }

    /// 60 s tones: fourteen joins or more, each anchored from the one before (the chain's
    /// rounding must not grow with it). Only blocks at joins are fitted.
    @Test("every join of a 60 s tone is at least 60 dB", arguments: [(1000.0, Rational(1, 8), 48000),
                                                                   (5000.0, Rational(4), 44100),
                                                                   (110.0, Rational(1, 4), 44100)])
    func longTones(frequency: Double, rate: Rational, sampleRate: Int) throws {
        let m = try Self.measure(frequency: frequency, seconds: 60, sections: try Self.whole(60, rate: rate),
                                 sampleRate: sampleRate, onlyJoins: true)
        print("spectral 60 s of \(Int(frequency)) Hz at \(rate)x, \(sampleRate) Hz, \(m.joins) piece joins: worst block at "
              + "joins \(Self.fmt(m.atJoins)) dB (bar 60)")
        #expect(m.joins >= 14)
        #expect(m.atJoins >= 60)
    }

    /// Two steady tones and clicks (steady partials, sharp attacks): the pieces give what one
    /// stretcher gives, across every join.
    @Test("pieces of steady music equal one stretcher's output across the joins", arguments: [0.125, 0.5, 2])
    func likeOneStretcher(rate: Double) throws {
        let input = ParallelRenderingTests.music(seconds: 10)
        let sr = 48000
        let r = try AudioRenderer(map: try Self.map(seconds: 10, sections: try Self.whole(10, rate: Rational(Int64(rate * 1000), 1000))),
                                  source: InMemoryAudioSource(input), sampleRate: sr, algorithm: .spectral)
        let joins = r.plans.dropFirst().map(\.outputStart)
        let pieces = try r.renderAll()
        let one = try TimePitchAlgorithm.spectral.stretch(input, rate: rate, sampleRate: sr)
        #expect(joins.count >= 2)
        for join in joins {
            let around = (join - sr / 20)..<(join + sr / 20)
            for c in 0..<2 {
                let residual = Signals.residualDB(Array(pieces.channels[c][around]), Array(one.channels[c][around]))
                print("spectral music at \(rate)x, channel \(c): pieces vs one stretcher within 50 ms of the join at \(join): "
                      + "\(Self.fmt(residual)) dB (bar −60)")
                #expect(residual <= -60)
            }
        }
    }
}
