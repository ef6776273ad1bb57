import Foundation
import SlomoCore
import Testing
@testable import SlomoAudio

/// `AudioRenderer`: sample-exact rendering of a time map.
@Suite("Rendering a time map")
struct RendererTests {
    static let sr = 48000

    static func t(_ n: Int64, _ d: Int64 = 1) -> MediaTime { MediaTime(seconds: Rational(n, d)) }

    /// A 3 s clip with source 1–2 s at `rate` (output 1 + 1/rate + 1 s).
    static func map(rate: Rate, ramp: MediaTime = .zero, ease: Ease? = nil, audio: TimePitchAlgorithm? = nil) throws -> TimeMap {
        try TimeMap(sections: [Section(t(1)..<t(2), rate: rate, ramp: ramp, ease: ease, audio: audio)], clipDuration: t(3))
    }

    static func expectedFrames(_ map: TimeMap) throws -> Int {
        let base = Rational(1, Int64(sr))
        return Int(try map.output.end.ticks(in: base, rounding: .nearest) - map.output.start.ticks(in: base, rounding: .nearest))
    }

    @Test("1 / 0.25 / 1: exact length, untouched rate-1 audio, no discontinuity",
          arguments: [TimePitchAlgorithm.spectral, .timeDomain, .varispeed, .lowLatency])
    func continuity(_ alg: TimePitchAlgorithm) throws {
        let rate: Rate = alg == .lowLatency ? 0.5 : 0.25
        let map = try Self.map(rate: rate)
        let input = Signals.sine(440, seconds: 3)
        let out = try AudioRenderer.render(input, sampleRate: Self.sr, through: map, algorithm: alg).channels[0]
        let expected = try Self.expectedFrames(map)
        #expect(out.count == expected)
        let join1 = Self.sr, join2 = Self.sr + Int(Double(Self.sr) / rate.doubleValue)
        // Rate-1 audio is copied bit for bit (crossfades lie on the stretched side).
        #expect(Array(out[0..<join1]) == Array(input.channels[0][0..<join1]))
        #expect(Array(out[join2...]) == Array(input.channels[0][(2 * Self.sr)...]))
        // Largest jump at the joins (±10 ms) against the largest jump anywhere else.
        let w = Self.sr / 100
        let atJoins = max(Signals.largestJump(out, in: (join1 - w)..<(join1 + w)),
                          Signals.largestJump(out, in: (join2 - w)..<(join2 + w)))
        var inside: Float = 0
        inside = max(inside, Signals.largestJump(out, in: 1..<(join1 - w)))
        inside = max(inside, Signals.largestJump(out, in: (join1 + w)..<(join2 - w)))
        inside = max(inside, Signals.largestJump(out, in: (join2 + w)..<out.count))
        let ratio = Double(atJoins / inside)
        print("\(alg) map 1/\(rate)/1: \(out.count) frames (expected \(expected)); largest jump at joins \(atJoins), "
              + "inside the tone \(inside) (ratio \(String(format: "%.4f", ratio)))")
        // A click would be many times the tone's own slope. The crossfade between two sines of
        // unrelated phase adds w′·(b − a) to the slope, and stretched tones ripple by a few
        // tenths of a percent in amplitude: ratios of 1.000–1.003 were measured. The margin
        // of 1 % is stated, not hidden (see docs/audio.md).
        #expect(ratio <= 1.01)
    }

    /// The issue sets no timing bar for ramps; these limits are what the renderer holds
    /// today (measured: varispeed 1.3 ms, spectral 2.5 ms, time-domain 2.3 ms, low-latency
    /// 4.7 ms worst). Time-domain places each click's onset and plays it once.
    @Test("ramps: exact segment lengths, smooth rate, clicks where the map puts them",
          arguments: [TimePitchAlgorithm.spectral, .timeDomain, .varispeed, .lowLatency])
    func ramp(_ alg: TimePitchAlgorithm) throws {
        try Self.checkRampClicks(alg, ease: nil)
    }

    /// Eased ramps bend the rate inside the ramp; the clicks still land where the map puts them
    /// (time-domain: 82 ms off in the steep bezier before its sequences followed the input's
    /// own rates).
    @Test("eased ramps: clicks where the map puts them",
          arguments: [TimePitchAlgorithm.spectral, .varispeed, .timeDomain],
          [Ease.smooth, .easeIn, .cubicBezier(x1: Rational(1, 10), y1: Rational(7, 10), x2: Rational(4, 10), y2: Rational(1))])
    func easedRamp(_ alg: TimePitchAlgorithm, ease: Ease) throws {
        try Self.checkRampClicks(alg, ease: ease)
    }

    static func checkRampClicks(_ alg: TimePitchAlgorithm, ease: Ease?) throws {
        let map = try Self.map(rate: alg == .lowLatency ? 0.5 : 0.25, ramp: Self.t(3, 10), ease: ease)
        #expect(map.segments.count == 5)
        // Clicks at source 0.5, 1.1, 1.5, 1.9, 2.5 s.
        let sourceClicks: [Int64] = [5, 11, 15, 19, 25]
        let input = Signals.clicks(at: sourceClicks.map { Int($0) * Self.sr / 10 }, frames: 3 * Self.sr)
        let renderer = try AudioRenderer(map: map, source: InMemoryAudioSource(input), sampleRate: Self.sr, algorithm: alg)
        #expect(renderer.plans.map(\.frameCount).reduce(0, +) == renderer.outputFrameCount)
        #expect(renderer.outputFrameCount == (try Self.expectedFrames(map)))
        let out = try renderer.renderAll().channels[0]
        #expect(out.count == renderer.outputFrameCount)
        let inClicks = Signals.detectClicks(input.channels[0])
        let found = Signals.detectClicks(out)
        #expect(found.count == sourceClicks.count)
        var worst = 0.0
        for (f, c) in zip(found, inClicks) {
            let src = MediaTime(seconds: Rational(Int64((c * 1000).rounded()), Int64(Self.sr) * 1000))
            let expected = map.outputTime(at: src).doubleSeconds * Double(Self.sr)
            worst = max(worst, abs(f - expected) / Double(Self.sr) * 1000)
            print("  \(alg) click at source \(c / Double(Self.sr)) s: expected output \(expected / Double(Self.sr)) s, found \(f / Double(Self.sr)) s")
        }
        print("\(alg) ramped map (\(ease ?? .linear)): \(out.count) frames, \(found.count)/\(sourceClicks.count) clicks, "
              + "worst click timing error \(String(format: "%.2f", worst)) ms")
        let limit: Double = [.spectral: 5, .varispeed: 2, .lowLatency: 20, .timeDomain: 5][alg]!
        #expect(worst <= limit)
    }

    @Test("streaming block by block from a decoder-like source gives the same samples")
    func streamingMatchesWhole() throws {
        let map = try Self.map(rate: 0.5, ramp: Self.t(1, 5))
        let input = Signals.sine(330, seconds: 3, channels: 2)
        let whole = try AudioRenderer.render(input, sampleRate: Self.sr, through: map, algorithm: .spectral)
        var rng = Signals.Random(seed: 11)
        var cursor = 0
        let source = StreamingAudioSource(channelCount: 2, history: AudioRenderer.maximumLookBehind(sampleRate: Self.sr)) {
            guard cursor < input.frameCount else { return nil }
            let n = min(rng.int(in: 100...5000), input.frameCount - cursor)
            defer { cursor += n }
            return input.slice(cursor..<(cursor + n))
        }
        let renderer = try AudioRenderer(map: map, source: source, sampleRate: Self.sr, algorithm: .spectral)
        var out = AudioBuffer(channelCount: 2)
        var blocks = 0
        while let b = try renderer.nextBlock(maxFrames: rng.int(in: 1...3000)) {
            out.append(b)
            blocks += 1
        }
        print("streamed render: \(blocks) blocks, \(out.frameCount) frames, identical to the one-call render: \(out == whole)")
        #expect(out == whole)
    }

    @Test("per-section algorithms, and out-of-range rates are clear errors")
    func perSectionAlgorithms() throws {
        let map = try TimeMap(sections: [
            Section(Self.t(1, 2)..<Self.t(1), rate: 0.5, audio: .lowLatency),
            Section(Self.t(3, 2)..<Self.t(2), rate: 2, audio: .varispeed),
            Section(Self.t(2)..<Self.t(5, 2), rate: 8, audio: .timeDomain),
        ], clipDuration: Self.t(3))
        let input = Signals.sine(440, seconds: 3)
        let out = try AudioRenderer.render(input, sampleRate: Self.sr, through: map, algorithm: .spectral)
        #expect(out.frameCount == (try Self.expectedFrames(map)))
        #expect(throws: AudioError.self) {
            try AudioRenderer(map: try Self.map(rate: 0.25, audio: .lowLatency),
                              source: InMemoryAudioSource(input), sampleRate: Self.sr)
        }
        do {
            _ = try AudioRenderer(map: try Self.map(rate: 0.25, audio: .lowLatency), source: InMemoryAudioSource(input), sampleRate: Self.sr)
        } catch {
            print("renderer error for 0.25 with low-latency: \(error)")
        }
    }

    @Test("1/32 and 32 work for spectral and varispeed",
          arguments: [TimePitchAlgorithm.spectral, .varispeed])
    func extremeRates(_ alg: TimePitchAlgorithm) throws {
        for (rate, seconds) in [(1.0 / 32, 0.25), (32.0, 4.0)] {
            let input = Signals.sine(440, seconds: seconds)
            let out = try alg.stretch(input, rate: rate, sampleRate: Self.sr).channels[0]
            let expectedLength = Signals.expectedLength(input.frameCount, rate: rate)
            #expect(out.count == expectedLength)
            let mid = (out.count / 5)..<(out.count * 4 / 5)
            let f = Signals.frequency(out[mid])
            let expectedF = alg == .varispeed ? 440 * rate : 440
            let cents = Signals.cents(f, expectedF)
            print("\(alg) at \(rate == 32 ? "32" : "1/32"): \(out.count) frames (expected \(expectedLength)), pitch error \(String(format: "%.3f", cents)) cents")
            #expect(abs(cents) <= (alg == .varispeed ? 0.1 : 5))
        }
        // And through the renderer: a 1/32 section and a 32x section.
        let map = try TimeMap(sections: [Section(Self.t(1, 4)..<Self.t(1, 2), rate: Rate(Rational(1, 32))),
                                         Section(Self.t(1)..<Self.t(2), rate: 32)],
                              clipDuration: Self.t(3))
        let out = try AudioRenderer.render(Signals.sine(440, seconds: 3), sampleRate: Self.sr, through: map, algorithm: alg)
        #expect(out.frameCount == (try Self.expectedFrames(map)))
    }
}
