import Foundation
import SlomoCore
import Testing
@testable import SlomoAudio

/// Long spectral and time-domain segments render as pieces on several threads.
@Suite("Rendering long segments in parallel pieces")
struct ParallelRenderingTests {
    static let sr = 48000

    /// A whole clip of `seconds` at `rate`.
    static func map(seconds: Int64, rate: Rate) throws -> TimeMap {
        let end = MediaTime(seconds: Rational(seconds))
        return try TimeMap(sections: [Section(.zero..<end, rate: rate)], clipDuration: end)
    }

    /// Two tones per channel and a click every 0.7 s: something for every part of a stretcher.
    static func music(seconds: Double) -> AudioBuffer {
        let a = Signals.sine(220, seconds: seconds, channels: 2, amplitude: 0.3)
        let b = Signals.sine(1330, seconds: seconds, channels: 2, amplitude: 0.2, seed: 5)
        let n = a.frameCount
        let c = Signals.clicks(at: Array(stride(from: 9000, to: n - 2000, by: Self.sr * 7 / 10)), frames: n)
        return AudioBuffer(planar: (0..<2).map { ch in
            (0..<n).map { a.channels[ch][$0] + b.channels[ch][$0] + 0.5 * c.channels[0][$0] }
        })
    }

    @Test("pieces share the segment exactly and give the same samples on one thread or two",
          arguments: [TimePitchAlgorithm.spectral, .timeDomain])
    func deterministic(_ alg: TimePitchAlgorithm) throws {
        let map = try Self.map(seconds: 10, rate: 0.5)
        let input = Self.music(seconds: 10)
        func renderer(_ parallelism: Int, _ source: any AudioSampleSource) throws -> AudioRenderer {
            try AudioRenderer(map: map, source: source, sampleRate: Self.sr, algorithm: alg, parallelism: parallelism)
        }
        let serial = try renderer(1, InMemoryAudioSource(input))
        let plans = serial.plans
        #expect(plans.count == 3 && plans.allSatisfy { $0.pieceCount == 3 })
        for (a, b) in zip(plans, plans.dropFirst()) {
            #expect(a.outputEnd == b.outputStart && a.sourceEnd == b.sourceStart)
        }
        #expect(plans.first?.outputStart == 0 && plans.last?.outputEnd == 960_000)
        let one = try serial.renderAll()
        let two = try renderer(2, InMemoryAudioSource(input)).renderAll()
        #expect(one.frameCount == 960_000)
        #expect(one == two)
        print("\(alg) 10 s at 0.5: \(plans.count) pieces, one thread and two give identical samples")
    }

    /// Pieces start rendering while the copied audio before them is still being delivered,
    /// reading ahead of a decoder-like source that keeps only the renderer's look-behind.
    @Test("pieces render ahead of copied audio from a streaming source", arguments: [TimePitchAlgorithm.spectral, .timeDomain])
    func streamingAhead(_ alg: TimePitchAlgorithm) throws {
        let clip = MediaTime(seconds: Rational(16))
        let map = try TimeMap(sections: [Section(MediaTime(seconds: Rational(2))..<MediaTime(seconds: Rational(12)), rate: 0.5)],
                              clipDuration: clip)
        let input = Self.music(seconds: 16)
        let serial = try AudioRenderer(map: map, source: InMemoryAudioSource(input), sampleRate: Self.sr,
                                       algorithm: alg, parallelism: 1)
        #expect(serial.plans.map(\.pieceCount) == [1, 3, 3, 3, 1])
        let expected = try serial.renderAll()
        var offset = 0
        let streaming = StreamingAudioSource(channelCount: 2, history: AudioRenderer.maximumLookBehind(sampleRate: Self.sr)) {
            guard offset < input.frameCount else { return nil }
            let n = min(3001, input.frameCount - offset)
            defer { offset += n }
            return input.slice(offset..<(offset + n))
        }
        let streamed = try AudioRenderer(map: map, source: streaming, sampleRate: Self.sr, algorithm: alg, parallelism: 2)
        var out = AudioBuffer(channelCount: 2)
        while let block = try streamed.nextBlock(maxFrames: 4000) { out.append(block) }
        #expect(out.frameCount == 26 * Self.sr)   // 2 + 10 / 0.5 + 4 s
        #expect(out == expected)
    }

    /// Where two pieces meet, both continue the same tone: after alignment the crossfade
    /// neither dips nor clicks. (R3's own envelope ripples by up to 4.6 dB in 5 ms windows on a
    /// 5 kHz tone, so a join is compared with the second before it.)
    @Test("a steady tone across piece joins keeps its level and has no click",
          arguments: [TimePitchAlgorithm.spectral, .timeDomain])
    func seamless(_ alg: TimePitchAlgorithm) throws {
        var worstExcess = -Double.infinity, worstRatio = 0.0
        for f in [110.0, 440, 1000, 5000] {
            let input = Signals.sine(f, seconds: 6, channels: 2)
            let r = try AudioRenderer(map: try Self.map(seconds: 6, rate: 0.5), source: InMemoryAudioSource(input),
                                      sampleRate: Self.sr, algorithm: alg)
            let joins = r.plans.dropFirst().map(\.outputStart)
            #expect(joins.count == 1)
            let out = try r.renderAll().channels[0]
            let w = Self.sr / 100
            for join in joins {
                // 5 ms windows: 200 ms across the join, and the second before it.
                let atJoin = Signals.envelopeDips(out, in: (join - 10 * w)..<(join + 10 * w), window: w / 2).deepest
                let before = Signals.envelopeDips(out, in: (join - 110 * w)..<(join - 10 * w), window: w / 2).deepest
                let jump = Signals.largestJump(out, in: (join - w)..<(join + w))
                let inside = Signals.largestJump(out, in: (join - 110 * w)..<(join - 10 * w))
                print("\(alg) \(Int(f)) Hz at 0.5x, piece join at frame \(join): deepest dip \(String(format: "%.2f", atJoin)) dB "
                      + "(\(String(format: "%.2f", before)) dB in the second before), largest jump \(jump) (\(inside) before)")
                #expect(atJoin <= max(1, before + 0.5), "\(alg) \(f) Hz dip at the join")
                worstExcess = max(worstExcess, atJoin - before)
                worstRatio = max(worstRatio, Double(jump / inside))
            }
        }
        print("\(alg) piece joins: dips at most \(String(format: "%.2f", worstExcess)) dB deeper than elsewhere, "
              + "jump ratio \(String(format: "%.4f", worstRatio))")
        #expect(worstRatio <= 1.01)
    }

    /// A click train through three pieces: every click is there, where the map puts it, as
    /// close as when the whole segment goes through one stretcher (within the ±5 ms a join
    /// may shift a piece).
    @Test("clicks across pieces land where the map puts them", arguments: [TimePitchAlgorithm.spectral, .timeDomain])
    func clicks(_ alg: TimePitchAlgorithm) throws {
        let positions = (0..<14).map { 9000 + $0 * 33_000 + ($0 % 3) * 1700 }
        let input = Signals.clicks(at: positions, frames: 480_000)
        let reference = Signals.detectClicks(input.channels[0])
        let rate = 0.5
        let pieces = try AudioRenderer.render(input, sampleRate: Self.sr, through: try Self.map(seconds: 10, rate: 0.5),
                                              algorithm: alg)
        let whole = try alg.stretch(input, rate: rate, sampleRate: Self.sr)
        func errors(_ out: AudioBuffer) -> [Double] {
            let found = Signals.detectClicks(out.channels[0])
            #expect(found.count == reference.count, "\(alg): \(found.count) clicks of \(reference.count)")
            return zip(found, reference).map { abs($0 - $1 / rate) / Double(Self.sr) * 1000 }
        }
        let inPieces = errors(pieces), inOne = errors(whole)
        let fmt = { (x: Double) in String(format: "%.3f", x) }
        print("\(alg) 0.5x click train over 3 pieces: worst timing error \(fmt(inPieces.max() ?? .infinity)) ms, "
              + "mean \(fmt(inPieces.reduce(0, +) / Double(inPieces.count))) ms; one stretcher: worst \(fmt(inOne.max() ?? .infinity)) ms")
        #expect((inPieces.max() ?? .infinity) <= (inOne.max() ?? 0) + 5)
    }

    /// An export that is cancelled drops its renderer with pieces still rendering: the renderer
    /// goes at once, its workers stop and never touch it again (this crashed the process).
    @Test("a renderer dropped with pieces in flight goes away cleanly")
    func droppedWhileRendering() throws {
        let input = Self.music(seconds: 20)
        var renderer: AudioRenderer? = try AudioRenderer(map: try Self.map(seconds: 20, rate: 0.5),
                                                         source: InMemoryAudioSource(input), sampleRate: Self.sr,
                                                         algorithm: .spectral, parallelism: 2)
        _ = try renderer?.nextBlock(maxFrames: 1000)
        weak let gone = renderer
        renderer = nil
        #expect(gone == nil)
        // Time for the workers to notice; a read of the freed renderer would end the process here.
        Thread.sleep(forTimeInterval: 1)
        let again = try AudioRenderer.render(Self.music(seconds: 1), sampleRate: Self.sr,
                                             through: try Self.map(seconds: 1, rate: 0.5), algorithm: .spectral)
        #expect(again.frameCount == 2 * Self.sr)
    }
}
