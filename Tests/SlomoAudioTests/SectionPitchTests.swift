import Foundation
import SlomoCore
import Testing
@testable import SlomoAudio

/// A section's own pitch (`:pitch=`): its sound moves by that many semitones at its rate, the
/// neighbours keep theirs, and every length stays exact.
@Suite("A section's pitch")
struct SectionPitchTests {
    static let sr = 48000

    static func t(_ n: Int64, _ d: Int64 = 1) -> MediaTime { MediaTime(seconds: Rational(n, d)) }

    /// 6 s of 440 Hz with source 2–4 s at `rate`, `pitch` semitones: 440 Hz, then
    /// 440·2^(pitch/12) Hz for 2/rate s, then 440 Hz again, in exactly 4 + 2/rate s.
    @Test(arguments: [(TimePitchAlgorithm.spectral, Rate(0.5), 12.0), (.spectral, Rate(1), 3), (.spectral, Rate(2), -5),
                      (.timeDomain, Rate(0.5), 7), (.lowLatency, Rate(1), -12)])
    func sectionMovesItsOwnSound(algorithm: TimePitchAlgorithm, rate: Rate, pitch: Double) throws {
        let map = try TimeMap(sections: [Section(Self.t(2)..<Self.t(4), rate: rate, audio: algorithm, pitch: pitch)], clipDuration: Self.t(6))
        let input = Signals.sine(440, seconds: 6)
        let out = try AudioRenderer.render(input, sampleRate: Self.sr, through: map).channels[0]
        let sectionEnd = Self.sr * 2 + Int((2 / rate.doubleValue) * Double(Self.sr))
        #expect(out.count == sectionEnd + 2 * Self.sr, "exact length")
        let margin = Self.sr / 10
        let before = Signals.frequency(out[margin ..< 2 * Self.sr - margin])
        let inside = Signals.frequency(out[2 * Self.sr + margin ..< sectionEnd - margin])
        let after = Signals.frequency(out[sectionEnd + margin ..< out.count - margin])
        let shifted = 440 * pow(2, pitch / 12)
        let snr = Signals.sineFitSNR(out[2 * Self.sr + margin ..< sectionEnd - margin], frequency: shifted)
        let worst = Signals.worstBlockSNR(out, in: 2 * Self.sr + margin ..< sectionEnd - margin, frequency: shifted)
        print(String(format: "%@ at %@x :pitch=%g: before %.3f Hz, inside %.3f Hz (%+.3f cent, %.1f dB, worst 4096-frame block %.1f dB), after %.3f Hz; %d frames",
                     algorithm.rawValue, rate.description, pitch, before, inside, Signals.cents(inside, shifted), snr, worst, after, out.count))
        #expect(abs(Signals.cents(before, 440)) < 0.5)
        #expect(abs(Signals.cents(inside, shifted)) < 1)
        #expect(abs(Signals.cents(after, 440)) < 0.5)
        #expect(snr > 30)
    }

    /// Rate-1 sound next to a shifted section is still copied bit for bit.
    @Test func neighboursAreCopied() throws {
        let map = try TimeMap(sections: [Section(Self.t(1)..<Self.t(2), rate: 1, pitch: 2)], clipDuration: Self.t(3))
        let input = Signals.sine(440, seconds: 3)
        let out = try AudioRenderer.render(input, sampleRate: Self.sr, through: map).channels[0]
        #expect(out.count == 3 * Self.sr)
        #expect(Array(out[0..<Self.sr]) == Array(input.channels[0][0..<Self.sr]))
        #expect(Array(out[(2 * Self.sr + Self.sr / 50)...]) == Array(input.channels[0][(2 * Self.sr + Self.sr / 50)...]))
    }

    /// Varispeed has no pitch of its own; beyond ±24 semitones is refused.
    @Test func refusals() throws {
        let varispeed = #expect(throws: TimeModelError.self) {
            try Section(Self.t(1)..<Self.t(2), rate: 0.5, audio: .varispeed, pitch: 2)
        }
        #expect(varispeed?.description.contains("varispeed's pitch follows its rate") == true, "\(varispeed?.description ?? "")")
        let far = #expect(throws: TimeModelError.self) { try Section(Self.t(1)..<Self.t(2), rate: 0.5, pitch: 25) }
        #expect(far?.description.contains("beyond the −24 … 24 semitones") == true)
        let map = try TimeMap(sections: [Section(Self.t(1)..<Self.t(2), rate: 0.5, pitch: 2)], clipDuration: Self.t(3))
        #expect(throws: AudioError.self) {
            _ = try AudioRenderer.render(Signals.sine(440, seconds: 3), sampleRate: Self.sr, through: map, algorithm: .varispeed)
        }
        #expect(try SectionSpec(parsing: "2-4x0.5:pitch=-2.5").pitch == -2.5)
        #expect(try SectionSpec(parsing: "2-4x0.5:pitch=3").description == "2-4x0.5:pitch=3")
        #expect(throws: TimeModelError.self) { try SectionSpec(parsing: "2-4x0.5:pitch=high") }
    }
}
