import Foundation
import SlomoTestSupport
import Testing

/// The true-peak limiter, judged by FFmpeg's own true-peak meter (`ebur128=peak=true`, 4x
/// oversampling): a −1.7 dBFS voice stretched to 0.5x, whose peaks the spectral engine raises,
/// stays under −1 dBTP in a 16-bit WAV without a sample at full scale; a quiet tone after it
/// keeps its level; the float output of the same render keeps the peaks.
@Suite struct LimiterTests {
    /// espeak-ng's voice peaking at −1.7 dBFS, 1 s of silence, then 2 s of a −30 dBFS 300 Hz tone,
    /// as 16-bit 48 kHz WAV; returns the path and the voice's length in seconds.
    static func source(in folder: URL) throws -> (path: String, voice: Double) {
        let voice = folder.appendingPathComponent("voice.wav").path
        _ = try runChecked("espeak-ng", ["-w", voice, "Look at the ball: it hits the line, and the umpire calls it out."])
        let detected = try runChecked("ffmpeg", ["-nostdin", "-i", voice, "-af", "volumedetect", "-f", "null", "-"]).standardError
        let maximum = try #require(detected.components(separatedBy: "max_volume: ").last?.split(separator: " ").first.flatMap { Double($0) })
        let duration = try #require(Double(try runChecked("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                                                                        voice]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
        let path = folder.appendingPathComponent("source.wav").path
        _ = try runChecked("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", voice, "-f", "lavfi", "-i",
                                      "sine=frequency=300:sample_rate=48000:duration=2,volume=-30dB", "-filter_complex",
                                      "[0:a]aresample=48000,volume=\(-1.7 - maximum)dB,apad=pad_dur=1[v];[v][1:a]concat=n=2:v=0:a=1",
                                      "-c:a", "pcm_s16le", path])
        return (path, duration)
    }

    /// The true peak FFmpeg measures, in dBTP.
    static func truePeak(_ path: String) throws -> Double {
        let text = try runChecked("ffmpeg", ["-nostdin", "-i", path, "-af", "ebur128=peak=true", "-f", "null", "-"]).standardError
        return try #require(text.components(separatedBy: "Peak:").last?.split(separator: " ").first.flatMap { Double($0) })
    }

    /// RMS level in dB of the first channel between two output times.
    static func level(_ path: String, from start: Double, to end: Double) throws -> Double {
        let samples = try SyncProbe.samples(path)
        let part = samples[Int(start * 48000)..<Int(end * 48000)]
        return 10 * log10(part.reduce(0) { $0 + Double($1) * Double($1) } / Double(part.count))
    }

    @Test func aStretchedVoiceStaysUnderMinusOneDBTP() throws {
        let folder = try FixtureCache.shared.scratchFolder("limiter")
        let (source, voice) = try Self.source(in: folder)
        let limited = folder.appendingPathComponent("limited.wav").path, float = folder.appendingPathComponent("float.wav").path
        let run = try Slomo.run(["stretch", source, "--rate", "0.5", "-o", limited])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(try Slomo.run(["stretch", source, "--rate", "0.5", "--sample-format", "f32", "-o", float]).status == 0)
        let (limitedPeak, floatPeak) = (try Self.truePeak(limited), try Self.truePeak(float))
        let (status, data, _) = try runCapturingFiles("ffmpeg", ["-v", "error", "-nostdin", "-i", limited, "-f", "s16le", "-"])
        #expect(status == 0)
        let loudest = data.withUnsafeBytes { $0.bindMemory(to: Int16.self).map { abs(Int32($0)) }.max() ?? 0 }
        let quiet = (2 * (voice + 1) + 0.5, 2 * (voice + 3) - 0.5)
        let change = try Self.level(limited, from: quiet.0, to: quiet.1) - Self.level(float, from: quiet.0, to: quiet.1)
        print("limiter: true peak \(limitedPeak) dBTP (float output \(floatPeak) dBTP), loudest sample \(loudest)/32767, "
              + "quiet tone level change \(String(format: "%.4f", change)) dB; \(run.standardError.trimmingCharacters(in: .whitespacesAndNewlines))")
        #expect(floatPeak > -1, "the stretch raises the voice's peaks, so there is something to limit")
        #expect(limitedPeak <= -1)
        #expect(loudest < 32767)
        #expect(abs(change) < 0.1)
        #expect(run.standardError.contains("lowered by up to"))
    }
}
