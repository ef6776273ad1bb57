import Foundation
import SlomoCore
import SlomoTestSupport
import Testing
@testable import SlomoAudio

/// Issue 12's real-material bar: recorded-like speech (espeak-ng) and a music-like mix (chords
/// over a drum pattern) stretched by r and back by 1/r come out no further from the original,
/// in log-spectral distance, than Rubber Band R3 doing the same round trip; no NaN, no clipping.
@Suite("Spectral round trips on speech and music")
struct RealMaterialTests {
    static let sr = 48000

    /// A sentence spoken by espeak-ng, at 48 kHz.
    static func speech() throws -> [Float] {
        let folder = try FixtureCache.shared.scratchFolder("speech")
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = folder.appendingPathComponent("speech.wav").path
        try runChecked("espeak-ng", ["-w", wav, "The quick brown fox jumps over the lazy dog, then it stops, and listens."])
        let raw = folder.appendingPathComponent("speech.f32").path
        try runChecked("ffmpeg", ["-v", "error", "-nostdin", "-i", wav, "-ac", "1", "-ar", String(sr), "-f", "f32le", raw])
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        let noise = Signals.noise(frames: data.count / 4, seed: 12)
        let voice = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        // Recorded speech peaks with headroom: −6 dBFS.
        let gain = 0.5 / max(voice.map(abs).max() ?? 1, 1e-6)
        return voice.enumerated().map { gain * $1 + noise[$0] }
    }

    /// 6 s of three-note chords (with overtones) changing every second, over a kick, snare and
    /// hi-hat pattern at 120 bpm.
    static func music() -> [Float] {
        let n = 6 * sr
        var x = Signals.noise(frames: n, seed: 13)
        var rng = Signals.Random(seed: 14)
        let chords: [[Double]] = [[220, 277.18, 329.63], [196, 246.94, 293.66], [174.61, 220, 261.63],
                                  [164.81, 207.65, 246.94], [220, 261.63, 329.63], [196, 246.94, 329.63]]
        for i in 0..<n {
            let t = Double(i) / Double(sr)
            for f in chords[min(i / sr, 5)] {
                for (h, a) in [(1.0, 0.06), (2.0, 0.025), (3.0, 0.012)] { x[i] += Float(a * sin(2 * .pi * f * h * t)) }
            }
            let beat = t.truncatingRemainder(dividingBy: 0.5), eighth = t.truncatingRemainder(dividingBy: 0.25)
            let bar = Int(t / 0.5) % 2
            if bar == 0 { x[i] += Float(0.5 * exp(-beat * 30) * sin(2 * .pi * (50 + 80 * exp(-beat * 40)) * beat)) }
            else { x[i] += Float(0.25 * exp(-beat * 25) * rng.uniform()) }
            x[i] += Float(0.06 * exp(-eighth * 120) * rng.uniform())
        }
        return x
    }

    /// Mean log-spectral distance (dB) between two signals: 2048-frame Hann frames, hop 512,
    /// bins above −90 dB of the loudest.
    static func logSpectralDistance(_ a: [Float], _ b: [Float]) -> Double {
        let n = 2048, hop = 512, bins = n / 2 + 1
        let fft = RealFFT(size: n)
        let window = (0..<n).map { Float(0.5 - 0.5 * cos(2 * .pi * Double($0) / Double(n))) }
        func power(_ x: [Float], _ start: Int) -> [Double] {
            for i in 0..<n { fft.time[i] = start + i < x.count ? x[start + i] * window[i] : 0 }
            fft.forward()
            return (0..<bins).map { Double(fft.spectrum[2 * $0] * fft.spectrum[2 * $0] + fft.spectrum[2 * $0 + 1] * fft.spectrum[2 * $0 + 1]) }
        }
        var total = 0.0, frames = 0
        var start = 0
        while start + n <= min(a.count, b.count) {
            let pa = power(a, start), pb = power(b, start)
            let floor = max(pa.max() ?? 0, 1e-20) * 1e-9
            var sum = 0.0
            for k in 0..<bins { let d = 10 * log10((pa[k] + floor) / (pb[k] + floor)); sum += d * d }
            total += (sum / Double(bins)).squareRoot()
            frames += 1
            start += hop
        }
        return total / Double(max(frames, 1))
    }

    static func roundTrip(_ x: [Float], rate: Double, engine: SpectralEngine) throws -> [Float] {
        let there = try TimePitchAlgorithm.spectral.stretch(AudioBuffer(planar: [x]), rate: rate, sampleRate: sr,
                                                            spectralEngine: engine)
        return try TimePitchAlgorithm.spectral.stretch(there, rate: 1 / rate, sampleRate: sr, spectralEngine: engine).channels[0]
    }

    @Test("round trip by r and 1/r: no further from the original than Rubber Band R3", arguments: ["speech", "music"])
    func roundTrips(material: String) throws {
        let original = material == "speech" ? try Self.speech() : Self.music()
        for rate in [0.5, 0.25] {
            let ours = try Self.roundTrip(original, rate: rate, engine: .phaseGradient)
            let theirs = try Self.roundTrip(original, rate: rate, engine: .rubberBand)
            let lsdOurs = Self.logSpectralDistance(original, ours), lsdTheirs = Self.logSpectralDistance(original, theirs)
            let peak = ours.map(abs).max() ?? .nan, peakIn = original.map(abs).max() ?? .nan
            print("\(material) round trip at \(rate) and back: log-spectral distance \(String(format: "%.2f", lsdOurs)) dB "
                  + "(Rubber Band R3 \(String(format: "%.2f", lsdTheirs)) dB), peak \(String(format: "%.3f", peak)) "
                  + "(input \(String(format: "%.3f", peakIn)), Rubber Band R3 \(String(format: "%.3f", theirs.map(abs).max() ?? .nan)))")
            #expect(ours.count == original.count)
            #expect(ours.allSatisfy { $0.isFinite })
            #expect(peak < 1)
            #expect(lsdOurs <= lsdTheirs)
        }
    }
}
