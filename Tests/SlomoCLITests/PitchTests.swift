import Foundation
import SlomoTestSupport
import Testing

/// `--pitch`, independent of the rate: a 440 Hz tone three semitones up is 523.25 Hz within a
/// cent at rate 1, with a clean tone; at half speed an octave down it is 220 Hz and lasts
/// exactly twice as long.
@Suite struct PitchTests {
    /// 4 s of a 440 Hz tone at −6 dBFS, mono 48 kHz, 24-bit WAV.
    static func tone() throws -> String {
        try FixtureCache.shared.path(for: "pitch-tone", extension: "wav", arguments: [
            "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
            "sine=frequency=440:sample_rate=48000:duration=4,volume=0.5", "-c:a", "pcm_s24le"])
    }

    /// The frequency of a steady tone (zero crossings, interpolated), and its worst SNR over
    /// blocks of 4096 frames against the best-fitting sine at that frequency (least squares per
    /// block: amplitude, phase and offset), the measure the audio quality tests use.
    static func measure(_ samples: ArraySlice<Float>) -> (frequency: Double, snr: Double) {
        let x = Array(samples)
        var crossings: [Double] = []
        for i in 1..<x.count where x[i - 1] < 0 && x[i] >= 0 {
            crossings.append(Double(i - 1) + Double(-x[i - 1] / (x[i] - x[i - 1])))
        }
        let frequency = Double(crossings.count - 1) / ((crossings.last! - crossings.first!) / 48000)
        var worst = Double.infinity
        for start in stride(from: 0, to: x.count - 4096, by: 4096) {
            var s = [Double](repeating: 0, count: 9), r = [Double](repeating: 0, count: 3)
            let basis = (0..<4096).map { n -> [Double] in
                let phase = 2 * Double.pi * frequency * Double(start + n) / 48000
                return [sin(phase), cos(phase), 1]
            }
            for n in 0..<4096 {
                for i in 0..<3 {
                    r[i] += basis[n][i] * Double(x[start + n])
                    for j in 0..<3 { s[3 * i + j] += basis[n][i] * basis[n][j] }
                }
            }
            let c = solve3(s, r)
            var signal = 0.0, noise = 0.0
            for n in 0..<4096 {
                let tone = c[0] * basis[n][0] + c[1] * basis[n][1]
                signal += tone * tone
                noise += pow(Double(x[start + n]) - tone - c[2], 2)
            }
            worst = min(worst, 10 * log10(signal / max(noise, 1e-30)))
        }
        return (frequency, worst)
    }

    /// The solution of the 3×3 system `m·v = r` (Cramer's rule).
    static func solve3(_ m: [Double], _ r: [Double]) -> [Double] {
        func det(_ a: [Double]) -> Double {
            a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) + a[2] * (a[3] * a[7] - a[4] * a[6])
        }
        let d = det(m)
        return (0..<3).map { column in
            var replaced = m
            for row in 0..<3 { replaced[3 * row + column] = r[row] }
            return det(replaced) / d
        }
    }

    /// Stretches the tone at `rate` shifted by `semitones` with the spectral `engine`; returns
    /// its samples and measure.
    static func shift(rate: Double, semitones: Double, engine: String) throws -> (samples: Int, frequency: Double, snr: Double) {
        let output = try FixtureCache.shared.scratchFolder("pitch").appendingPathComponent("out.wav").path
        let result = try Slomo.run(["stretch", try Self.tone(), "--rate", "\(rate)", "--pitch", "\(semitones)",
                                    "--spectral-engine", engine, "-o", output])
        #expect(result.status == 0, "\(result.standardError)")
        let samples = try SyncProbe.samples(output)
        let (frequency, snr) = Self.measure(samples[Int(0.5 * 48000)..<(samples.count - Int(0.5 * 48000))])
        return (samples.count, frequency, snr)
    }

    /// With either spectral engine: the tone lands within a cent and the length is exact.
    @Test(arguments: [(1.0, 3.0, 523.2511306011972), (0.5, -12.0, 220.0)], ["phase-gradient", "rubberband"])
    func theToneMovesAndTheLengthDoesNot(shift: (rate: Double, semitones: Double, expected: Double), engine: String) throws {
        let (samples, frequency, snr) = try Self.shift(rate: shift.rate, semitones: shift.semitones, engine: engine)
        let cents = 1200 * log2(frequency / shift.expected)
        print("--rate \(shift.rate) --pitch \(shift.semitones) (\(engine)): \(String(format: "%.3f", frequency)) Hz "
              + "(\(String(format: "%+.3f", cents)) cents from \(String(format: "%.2f", shift.expected)) Hz), "
              + "worst block SNR \(String(format: "%.1f", snr)) dB, \(samples) samples")
        #expect(samples == Int(4 / shift.rate * 48000), "exactly \(4 / shift.rate) s")
        #expect(abs(cents) <= 1)
    }

    /// Either engine keeps the shifted tone clean: SNR ≥ 60 dB three semitones up, in every
    /// block. (The phase-gradient engine measured 49.6 dB here while the pieces it renders in
    /// parallel each started their own phases; anchored to continue each other, 84.9 dB.)
    @Test(arguments: ["phase-gradient", "rubberband"])
    func shiftsToAClearTone(engine: String) throws {
        let (_, _, snr) = try Self.shift(rate: 1, semitones: 3, engine: engine)
        #expect(snr >= 60, "\(engine): \(snr) dB")
    }

    @Test(arguments: [
        (["--pitch", "48"], "a pitch of 48.0 semitones is beyond the −24 … 24"),
        (["--pitch", "3", "--audio", "varispeed"], "varispeed's pitch follows its rate"),
    ])
    func mistakesAreUsageErrors(_ arguments: [String], mentions: String) throws {
        let folder = try FixtureCache.shared.scratchFolder("pitch-mistakes")
        let result = try Slomo.run(["stretch", try Self.tone(), "--rate", "0.8", "-o", folder.path + "/x.wav"] + arguments)
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains(mentions), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}

extension PitchTests {
    /// A section's own pitch on the command line: a 10 s 440 Hz movie retimed with
    /// `2-4x0.5:pitch=12` plays 440 Hz, then 880 Hz for 4 s, then 440 Hz again, each within a
    /// cent, and lasts exactly 12 s; `plan --json` says the pitch; bad values are usage errors.
    @Test func aSectionsOwnPitch() throws {
        let folder = try FixtureCache.shared.scratchFolder("section-pitch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.mov").path
        let clip = try Fixture.hfr240.path
        let result = try Slomo.run(["retime", clip, "--section", "2-4x0.5:pitch=12", "-o", output])
        #expect(result.status == 0, "\(result.standardError)")
        let samples = try SyncProbe.samples(output)
        let sr = 48000, margin = sr / 5
        let regions = [(margin, 2 * sr - margin, 440.0), (2 * sr + margin, 6 * sr - margin, 880.0), (6 * sr + margin, 12 * sr - margin, 440.0)]
        for (start, end, expected) in regions {
            let (frequency, snr) = Self.measure(samples[start..<end])
            let cents = 1200 * log2(frequency / expected)
            print(String(format: "retime 2-4x0.5:pitch=12, %.1f–%.1f s: %.3f Hz (%+.3f cent), %.1f dB", Double(start) / Double(sr),
                         Double(end) / Double(sr), frequency, cents, snr))
            #expect(abs(cents) < 1)
        }
        print("length \(samples.count) frames")
        #expect(abs(samples.count - 12 * sr) <= 1024, "12 s (AAC frames)")
        let plan = try Slomo.run(["plan", clip, "--section", "2-4x0.5:pitch=12", "--json"])
        #expect(plan.standardOutput.contains("\"pitch\" : 12") || plan.standardOutput.contains("\"pitch\":12"), "\(plan.standardOutput)")
        let table = try Slomo.run(["plan", clip, "--section", "2-4x0.5:pitch=12"])
        #expect(table.standardOutput.contains("spectral +12 st"), "\(table.standardOutput)")
        for (section, said) in [("2-4x0.5:pitch=30", "beyond the −24 … 24 semitones"), ("2-4x0.5:pitch=up", "pitch expects semitones"),
                                ("2-4x0.5:audio=varispeed:pitch=2", "varispeed's pitch follows its rate")] {
            let bad = try Slomo.run(["retime", clip, "--section", section, "-o", output, "--overwrite"])
            print("\(section): exit \(bad.status): \(bad.standardError)")
            #expect(bad.status == 64 && bad.standardError.contains(said), "\(bad.standardError)")
        }
    }
}
