import Foundation
import SlomoTestSupport
import Testing

// Nested in CaptureCommandTests, which is serialized: capture tests measure timing and must
// not compete with each other for the two cores.
extension CaptureCommandTests {
    /// Raw sound recorded as AAC (the default in .mp4) or PCM, judged by ffprobe and by the
    /// decoded samples.
    @Suite struct Sound {
        /// The first channel of the first audio stream, decoded by ffmpeg to 48 kHz float.
        static func decodedSamples(_ path: String) throws -> [Float] {
            let (status, output, _) = try runCapturingFiles("ffmpeg", ["-v", "error", "-i", path, "-map", "0:a:0", "-ac", "1",
                                                                      "-ar", "48000", "-f", "f32le", "-"])
            #expect(status == 0)
            return output.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        }

        /// Upward zero crossings a second, over the samples after the first 0.1 s and before
        /// the last 0.1 s. A recording ends where the sound was cut, and AAC rings briefly
        /// after an abrupt cut: when the last 10 ms sound block ran past the picture's end,
        /// that ringing alone added 11–18 crossings (446 Hz measured for a 440 Hz tone).
        static func frequency(_ samples: [Float], sampleRate: Double = 48000) -> Double {
            let body = samples.dropFirst(Int(sampleRate / 10)).dropLast(Int(sampleRate / 10))
            let crossings = zip(body.dropFirst(), body).filter { $1 < 0 && $0 >= 0 }.count
            return Double(crossings) / (Double(body.count) / sampleRate)
        }

        @Test func mp4RecordingsHaveAACSoundAsLongAsThePicture() throws {
            let folder = try FixtureCache.shared.scratchFolder("capture-aac")
            let path = folder.appendingPathComponent("take.mp4").path
            let result = try Slomo.run(["capture", "--input", "testsrc:640x360@60", "--input", "sine:440", "--duration", "3",
                                        "-o", path, "-q"])
            #expect(result.status == 0, "\(result.standardError)")
            let probe = try FFprobe(path)
            let audio = try #require(probe.stream("audio"))
            let video = try #require(probe.stream("video"))
            let audioDuration = Double(audio["duration"] as? String ?? "") ?? 0
            let videoDuration = Double(video["duration"] as? String ?? "") ?? 0
            let samples = try Self.decodedSamples(path)
            let frequency = Self.frequency(samples)
            let middle = samples.dropFirst(4800).dropLast(4800)
            let rms = (middle.reduce(0) { $0 + Double($1 * $1) } / Double(max(1, middle.count))).squareRoot()
            print("AAC: audio \(audioDuration) s, video \(videoDuration) s, \(frequency) Hz, RMS \(rms)")
            #expect(audio["codec_name"] as? String == "aac")
            #expect(Double(audio["start_time"] as? String ?? "") == 0)
            #expect(abs(audioDuration - videoDuration) <= 1.0 / 60, "the sound lasts as long as the picture, within a frame")
            #expect(abs(frequency - 440) <= 1, "the tone is 440 Hz")
            #expect(abs(rms - 0.5 / 2.0.squareRoot()) <= 0.01, "a 0.5-amplitude tone (RMS 0.354)")
            #expect(try CaptureCommandTests.decodeErrors(path).isEmpty)
        }

        @Test func movRecordingsKeepPCMUnlessAskedForAAC() throws {
            let folder = try FixtureCache.shared.scratchFolder("capture-audio-codec")
            let pcm = folder.appendingPathComponent("pcm.mov").path
            let aac = folder.appendingPathComponent("aac.mov").path
            #expect(try Slomo.run(["capture", "--input", "sine:1000", "--duration", "1", "-o", pcm, "-q"]).status == 0)
            #expect(try Slomo.run(["capture", "--input", "sine:1000", "--duration", "1", "--audio-codec", "aac", "-o", aac, "-q"]).status == 0)
            #expect(try FFprobe(pcm).stream("audio")?["codec_name"] as? String == "pcm_f32le")
            #expect(try FFprobe(aac).stream("audio")?["codec_name"] as? String == "aac")
            #expect(abs(Self.frequency(try Self.decodedSamples(aac)) - 1000) <= 1)
        }

        @Test func pcmInMP4IsAClearError() throws {
            let folder = try FixtureCache.shared.scratchFolder("capture-pcm-mp4")
            let path = folder.appendingPathComponent("take.mp4").path
            let result = try Slomo.run(["capture", "--input", "sine:440", "--duration", "1", "--audio-codec", "pcm", "-o", path])
            #expect(result.status == 1)
            #expect(result.standardError.contains(".mov"), "\(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: path))
            let unknown = try Slomo.run(["capture", "--input", "sine:440", "--audio-codec", "mp3", "-o", path])
            // A codec recordings do not store is the library's refusal, worded with the option.
            #expect(unknown.status == 64)
            #expect(unknown.standardError.contains("--audio-codec mp3: recordings store sound as pcm or aac"), "\(unknown.standardError)")
        }
    }
}
