import Foundation
@testable import SlomoAudio
import SlomoCore
import Testing

/// The quality bars of issues 4 and 12 (spectral), one test per bar and algorithm, each
/// printing what it measured.
@Suite("Quality bars")
struct QualityTests {
    static let sr = 48000

    /// Rates each algorithm is measured at (time-domain and low-latency within 0.5–2).
    static func rates(_ alg: TimePitchAlgorithm) -> [Double] {
        switch alg {
        case .spectral: return [1.0 / 32, 0.125, 0.25, 0.5, 2, 4, 32]
        case .varispeed: return [0.25, 0.5, 2, 4]
        case .timeDomain: return [0.5, 0.8, 1.25, 2]
        case .lowLatency: return [0.5, 2.0 / 3, 0.8, 1.25, 1.5, 2]
        }
    }

    static func fmt(_ x: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", x) }

    // MARK: length

    @Test("length at a constant rate, offline", arguments: TimePitchAlgorithm.allCases)
    func exactLength(_ alg: TimePitchAlgorithm) throws {
        let input = Signals.sine(440, seconds: 0.5, channels: 2)
        let n = input.frameCount + 17
        let padded = input.paddedSlice(from: 0, count: n)
        var worst = 0
        for rate in Self.rates(alg) + [1.0 / 3] where alg != .lowLatency || rate != 1.0 / 3 {
            let out = try alg.stretch(padded, rate: rate, sampleRate: Self.sr)
            let expected = Signals.expectedLength(n, rate: try alg.validatedRate(rate))
            worst = max(worst, abs(out.frameCount - expected))
            #expect(out.frameCount == expected, "\(alg) at \(rate)")
        }
        print("\(alg) offline length error, worst over rates: \(worst) frames")
    }

    // MARK: drift

    @Test("drift after 60 s streamed in random block sizes", arguments: TimePitchAlgorithm.allCases)
    func streamingDrift(_ alg: TimePitchAlgorithm) throws {
        let sr = 16000, rate = 0.8
        let input = Signals.sine(440, seconds: 60, sampleRate: sr)
        let p = try alg.makeProcessor(rate: rate, sampleRate: sr, channelCount: 1)
        var lagEarly = 0.0, lagLate = 0.0
        let n = input.frameCount
        let out = try Signals.stream(input, through: p, maxBlock: 4096, seed: 42) { pushed, delivered in
            let lag = Double(pushed) / rate - Double(delivered)
            if pushed < 5 * sr { lagEarly = max(lagEarly, lag) }
            if pushed > n - 5 * sr { lagLate = max(lagLate, lag) }
        }
        let expected = Signals.expectedLength(n, rate: rate)
        let error = out.frameCount - expected
        print("\(alg) 60 s streamed at 0.8 in random blocks: length error \(error) frames; "
              + "delivery lag \(Int(lagEarly)) frames in the first 5 s, \(Int(lagLate)) in the last 5 s")
        #expect(abs(error) <= (alg == .lowLatency ? (p as! LowLatencyProcessor).grainFrameCount : 1))
        // Lag does not grow: delivery keeps pace with input (within one block of 4096 frames).
        #expect(lagLate <= lagEarly + 4096 / rate + 1)
    }

    // MARK: pitch and SNR

    @Test("pure-tone pitch error and tone SNR", arguments: TimePitchAlgorithm.allCases)
    func pitchAndSNR(_ alg: TimePitchAlgorithm) throws {
        let pitchBar: Double = [.spectral: 1, .timeDomain: 2, .lowLatency: 5, .varispeed: 0.1][alg]!
        let snrBar: Double = [.spectral: 60, .timeDomain: 35, .lowLatency: 20, .varispeed: 100][alg]!
        // The SNR bar holds from 0.125 to 4 (spectral is also measured at 1/32 and 32 for pitch).
        let snrRates = (0.125 - 1e-9)...4.0
        var worstCents = 0.0, worstSNR = Double.infinity
        for f in [110.0, 440, 1000, 5000] {
            let input = Signals.sine(f, seconds: 2)
            for rate in Self.rates(alg) {
                let out = try alg.stretch(input, rate: rate, sampleRate: Self.sr).channels[0]
                let expectedF = alg == .varispeed ? f * rate : f
                let mid = (out.count / 10)..<(out.count * 9 / 10)
                let measured = Signals.frequency(out[mid], sampleRate: Self.sr)
                let cents = Signals.cents(measured, expectedF)
                var snr = Signals.worstBlockSNR(out, in: mid, frequency: expectedF)
                if alg == .varispeed {
                    // The −100 dBFS floor caps any measurement at ≈ 91 dB for a 0.5 sine.
                    // Varispeed is linear: subtract the resampled floor to measure the resampler.
                    let floorOnly = AudioBuffer(planar: [Signals.noise(frames: input.frameCount, seed: 1)])
                    let noiseOut = try alg.stretch(floorOnly, rate: rate, sampleRate: Self.sr).channels[0]
                    let toneOut = zip(out, noiseOut).map { $0 - $1 }
                    print("\(alg) \(rate)x, \(Int(f)) Hz: SNR including the −100 dBFS input floor \(Self.fmt(snr, 1)) dB")
                    snr = Signals.worstBlockSNR(toneOut, in: mid, frequency: expectedF)
                }
                print("\(alg) \(rate)x, \(Int(f)) Hz: pitch error \(Self.fmt(cents, 3)) cents, tone SNR \(Self.fmt(snr, 1)) dB")
                worstCents = max(worstCents, abs(cents))
                #expect(abs(cents) <= pitchBar, "\(alg) \(rate)x \(f) Hz pitch")
                if snrRates.contains(rate) {
                    worstSNR = min(worstSNR, snr)
                    #expect(snr >= snrBar, "\(alg) \(rate)x \(f) Hz SNR")
                }
            }
        }
        print("\(alg) worst pitch error \(Self.fmt(worstCents, 3)) cents (bar \(pitchBar)), worst tone SNR \(Self.fmt(worstSNR, 1)) dB (bar \(snrBar))")
    }

    // MARK: envelope

    @Test("envelope dips on a steady 4 s tone", arguments: TimePitchAlgorithm.allCases)
    func envelope(_ alg: TimePitchAlgorithm) throws {
        let input = Signals.sine(440, seconds: 4)
        var deepest = 0.0, count = 0
        for rate in alg == .timeDomain || alg == .lowLatency ? [0.5, 0.8, 1.25, 2] : [0.25, 0.5, 2, 4] {
            let out = try alg.stretch(input, rate: rate, sampleRate: Self.sr).channels[0]
            // 10 ms windows (4.4 periods), skipping the first and last 50 ms.
            let edge = Self.sr / 20
            // Spectral holds the issue-12 bar: no dip deeper than 1 dB.
            let d = Signals.envelopeDips(out, in: edge..<(out.count - edge), window: Self.sr / 100,
                                         limit: alg == .spectral ? 1 : 3)
            print("\(alg) \(rate)x: deepest envelope dip \(Self.fmt(d.deepest)) dB, \(d.count) windows dip > \(alg == .spectral ? 1 : 3) dB")
            deepest = max(deepest, d.deepest)
            count += d.count
        }
        if alg == .lowLatency {
            #expect(deepest <= 6)
        } else {
            #expect(count == 0)
        }
        print("\(alg) deepest dip over rates: \(Self.fmt(deepest)) dB")
    }

    // MARK: clicks

    @Test("click train: count and timing", arguments: TimePitchAlgorithm.allCases)
    func clickTrain(_ alg: TimePitchAlgorithm) throws {
        let positions = (0..<20).map { 9000 + $0 * 12000 + ($0 % 3) * 1700 }
        let input = Signals.clicks(at: positions, frames: 252_000)
        let reference = Signals.detectClicks(input.channels[0])
        #expect(reference.count == positions.count)
        let rates: [Double] = switch alg {
        case .timeDomain: [0.8, 1.25]
        case .spectral: [0.125, 0.25, 0.5, 0.8, 1.25, 2, 4]
        case .lowLatency, .varispeed: [0.5, 0.8, 1.25, 2]
        }
        let (meanBar, maxBar): (Double, Double) = [
            .spectral: (1, 2), .timeDomain: (15, 15), .lowLatency: (20, 20), .varispeed: (0.1, 0.1),
        ][alg]!
        for rate in rates {
            let out = try alg.stretch(input, rate: rate, sampleRate: Self.sr)
            // Clicks come 8600 frames apart at the closest: at 4x that is 45 ms, inside the
            // detector's usual 50 ms separation.
            let found = Signals.detectClicks(out.channels[0], minSeparation: min(Self.sr / 20, Int(4000 / rate)))
            #expect(found.count == reference.count, "\(alg) \(rate)x: \(found.count) clicks out of \(reference.count)")
            let errors = zip(found, reference).map { abs($0 - $1 / rate) / Double(Self.sr) * 1000 }
            let mean = errors.reduce(0, +) / Double(max(errors.count, 1))
            let worst = errors.max() ?? .infinity
            print("\(alg) \(rate)x click train: \(found.count)/\(reference.count) clicks, timing error mean \(Self.fmt(mean, 3)) ms, max \(Self.fmt(worst, 3)) ms")
            #expect(mean <= meanBar, "\(alg) \(rate)x mean click timing")
            #expect(worst <= maxBar, "\(alg) \(rate)x max click timing")
        }
    }

    /// WSOLA slowing down repeats input, and a click it repeats is heard twice or three times
    /// (a flam, 20–40 ms apart): time-domain plays each click once, on its mapped time.
    @Test("time-domain slowing down plays each click once", arguments: [0.25, 0.5, 0.7])
    func timeDomainPlaysEachClickOnce(rate: Double) throws {
        let positions = (0..<20).map { 9000 + $0 * 12000 + ($0 % 3) * 1700 }
        let input = Signals.clicks(at: positions, frames: 252_000)
        let out = try TimePitchAlgorithm.timeDomain.stretch(input, rate: rate, sampleRate: Self.sr)
        // Copies of a click would come a sequence's hop or more apart: 5 ms separates them.
        let found = Signals.detectClicks(out.channels[0], minSeparation: Self.sr / 200)
        let reference = Signals.detectClicks(input.channels[0])
        let errors = zip(found, reference).map { abs($0 - $1 / rate) / Double(Self.sr) * 1000 }
        print("time-domain \(rate)x: \(found.count) clicks heard for \(reference.count), timing error max \(Self.fmt(errors.max() ?? .infinity, 3)) ms")
        #expect(found.count == reference.count)
        // The detector times a click's centre, 1 ms into it: WSOLA places its onset and plays
        // it unstretched, so its centre comes 1 ms after the onset, not 1/rate ms (3 ms early
        // at 0.25x, measured 2.3); an onset due in a fade goes just after it (measured 5.7 ms).
        #expect((errors.max() ?? .infinity) <= 6)
    }

    // MARK: identity at rate 1

    @Test("rate 1 reproduces the input", arguments: TimePitchAlgorithm.allCases)
    func identity(_ alg: TimePitchAlgorithm) throws {
        // A chord with clicks: something for every detector.
        let a = Signals.sine(220, seconds: 2, amplitude: 0.3)
        let b = Signals.sine(1330, seconds: 2, amplitude: 0.2, seed: 5)
        let c = Signals.clicks(at: [20000, 60000], frames: a.frameCount)
        let mix = (0..<a.frameCount).map { a.channels[0][$0] + b.channels[0][$0] + 0.5 * c.channels[0][$0] }
        let input = AudioBuffer(planar: [mix, mix.reversed()])
        let out = try alg.stretch(input, rate: 1, sampleRate: Self.sr)
        #expect(out.frameCount == input.frameCount)
        let residual = max(Signals.residualDB(out.channels[0], input.channels[0]),
                           Signals.residualDB(out.channels[1], input.channels[1]))
        let streamed = try Signals.stream(input, through: try alg.makeProcessor(rate: 1, sampleRate: Self.sr, channelCount: 2))
        #expect(streamed == input)
        // The engine itself at rate 1, without the processors' rate-1 bypass.
        let engine = try alg.makeProcessor(rate: 1, sampleRate: Self.sr, channelCount: 2)
        switch engine {
        case let p as SpectralProcessor: p.disableBypass()
        case let p as TimeDomainProcessor: p.disableBypass()
        case let p as VarispeedProcessor: p.disableBypass()
        case let p as LowLatencyProcessor: p.disableBypass()
        default: break
        }
        let raw = try engine.stretch(input)
        let engineResidual = Signals.residualDB(raw.channels[0], input.channels[0])
        print("\(alg) rate 1 residual: \(residual < -300 ? "exact (bit-identical)" : Self.fmt(residual, 1) + " dB") through the processor; "
              + "engine alone (no bypass) \(engineResidual < -300 ? "exact" : Self.fmt(engineResidual, 1) + " dB")")
        switch alg {
        case .lowLatency: #expect(out == input); #expect(raw == input)
        case .spectral: #expect(out == input); #expect(engineResidual <= -100)
        case .varispeed: #expect(residual <= -100)
        case .timeDomain: #expect(residual <= -60)
        }
    }

    // MARK: latency

    @Test("reported latency matches the measured click delay", arguments: TimePitchAlgorithm.allCases)
    func latency(_ alg: TimePitchAlgorithm) throws {
        let input = Signals.clicks(at: [24000], frames: 72000)
        let clickIn = Signals.detectClicks(input.channels[0])[0]
        for rate in [1.0, alg == .lowLatency ? 0.8 : 0.5] {
            let raw = try alg.makeProcessor(rate: rate, sampleRate: Self.sr, channelCount: 1, compensatesLatency: false)
            let out = try Signals.stream(input, through: raw, maxBlock: 512)
            guard let clickOut = Signals.detectClicks(out.channels[0]).first else {
                Issue.record("\(alg): click lost"); continue
            }
            let delay = clickOut - clickIn / rate
            let hop: Double
            switch alg {
            case .spectral: hop = Double(Self.sr) / 1000  // ±1 ms
            case .timeDomain: hop = Double((raw as! TimeDomainProcessor).hopFrames)
            case .varispeed: hop = Double(Self.sr) / 1000
            case .lowLatency: hop = rate == 1 ? 0.5 : Double((raw as! LowLatencyProcessor).grainFrameCount)
            }
            print("\(alg) \(rate)x: reported latency \(raw.latency) frames, measured click delay \(Self.fmt(delay, 1)) frames (tolerance ±\(Int(hop)))")
            #expect(abs(delay - Double(raw.latency)) <= hop)
        }
    }
}
