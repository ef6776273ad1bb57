import Foundation
import Testing
import SlomoCore
@testable import SlomoAudio

@Suite("Algorithms and rates")
struct AlgorithmTests {
    @Test func namesRoundTrip() throws {
        for a in TimePitchAlgorithm.allCases {
            #expect(try TimePitchAlgorithm(parsing: a.rawValue) == a)
        }
        #expect(TimePitchAlgorithm.lowLatency.rawValue == "low-latency")
        #expect(TimePitchAlgorithm.timeDomain.rawValue == "time-domain")
    }

    @Test func rubberBandIsR3() {
        let v = SpectralProcessor.engineVersion()
        print("Rubber Band engine version with OptionEngineFiner: \(v)")
        #expect(v == 3)
    }

    @Test func lowLatencySnaps() throws {
        let a = TimePitchAlgorithm.lowLatency
        #expect(try a.validatedRate(0.7) == 2.0 / 3)
        #expect(try a.validatedRate(0.75) == 0.8)
        #expect(try a.validatedRate(1.1) == 1)
        #expect(try a.validatedRate(1.4) == 1.5)
        #expect(try a.validatedRate(2) == 2)
        #expect(try a.validatedRate(0.5) == 0.5)
        let p = try LowLatencyProcessor(rate: 1.3, sampleRate: 48000, channelCount: 2)
        #expect(p.rate == 1.25)
    }

    @Test func badRatesAreClearErrors() throws {
        for (alg, rate) in [(TimePitchAlgorithm.lowLatency, 0.25), (.lowLatency, 3), (.spectral, 64),
                            (.varispeed, 1.0 / 64), (.timeDomain, 40)] {
            do {
                _ = try alg.validatedRate(rate)
                Issue.record("\(alg) accepted rate \(rate)")
            } catch let e as AudioError {
                print("\(alg) at \(rate): \(e)")
                #expect(e.kind == .rateOutOfRange)
                if alg == .lowLatency {
                    // The library names the setting in prose; the command line as `--audio`.
                    #expect(e.issue?.setting == .audioAlgorithm && e.issue?.value == "low-latency")
                    #expect(e.description.contains("use audio algorithm spectral") && !e.description.contains("--"), "\(e)")
                }
            }
        }
        for rate in [0.0, -1, .nan, .infinity] {
            #expect(throws: AudioError.self) { try TimePitchAlgorithm.spectral.validatedRate(rate) }
            #expect(throws: AudioError.self) {
                try TimePitchAlgorithm.varispeed.makeProcessor(rate: rate, sampleRate: 48000, channelCount: 1)
            }
        }
        #expect(throws: AudioError.self) {
            try TimePitchAlgorithm.lowLatency.makeProcessor(rate: 0.25, sampleRate: 48000, channelCount: 1)
        }
        #expect(try TimePitchAlgorithm.spectral.validatedRate(1.0 / 32) == 1.0 / 32)
        #expect(try TimePitchAlgorithm.varispeed.validatedRate(32) == 32)
        #expect(!TimePitchAlgorithm.timeDomain.isRecommended(4))
    }

    @Test func channelMismatchThrows() throws {
        let p = try TimePitchAlgorithm.spectral.makeProcessor(rate: 0.5, sampleRate: 48000, channelCount: 2)
        #expect(throws: AudioError.self) { try p.process(AudioBuffer(channelCount: 1, frameCount: 10)) }
    }

    @Test func stereoImageStaysPut() throws {
        // Left = tone, right = silence (noise floor): the right channel must stay quiet.
        let left = Signals.sine(440, seconds: 1)
        let right = Signals.noise(frames: left.frameCount, seed: 9)
        let input = AudioBuffer(planar: [left.channels[0], right])
        for alg in TimePitchAlgorithm.allCases {
            let out = try alg.stretch(input, rate: alg == .lowLatency ? 0.8 : 0.5, sampleRate: 48000)
            let l = out.channels[0].map { Double($0 * $0) }.reduce(0, +)
            let r = out.channels[1].map { Double($0 * $0) }.reduce(0, +)
            let separation = 10 * log10(l / max(r, 1e-30))
            print("\(alg) stereo separation (tone left, silence right): \(Int(separation)) dB")
            #expect(separation > 60)
        }
    }
}
