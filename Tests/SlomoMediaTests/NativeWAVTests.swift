import Foundation
@testable import SlomoMedia
import SlomoCore
import SlomoTestSupport
import Testing

/// WAV files read without FFmpeg (`WAVFile`, `MediaFile(wav:)`, `WAVFrameReader`) say and give
/// exactly what FFmpeg's demuxer and decoder do, and the files it should not take are left to
/// FFmpeg.
@Suite struct NativeWAVTests {
    /// WAVs the native reader takes: every coding, plain and extensible headers, odd lengths,
    /// rates above 48 kHz, and INFO tags.
    static let readable: [(name: String, arguments: [String])] = [
        ("s16-stereo-48k", ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=1", "-ac", "2", "-c:a", "pcm_s16le"]),
        ("s16-mono-odd", ["-f", "lavfi", "-i", "anoisesrc=sample_rate=44100:duration=1.00003:seed=3", "-c:a", "pcm_s16le"]),
        ("u8-mono-8k", ["-f", "lavfi", "-i", "sine=frequency=300:sample_rate=8000:duration=0.7", "-c:a", "pcm_u8"]),
        ("s24-51", ["-f", "lavfi", "-i", "anoisesrc=sample_rate=44100:duration=0.5:seed=5", "-af", "pan=5.1|c0=c0|c1=0.5*c0|c2=0.2*c0|c3=0.1*c0|c4=0.7*c0|c5=0.3*c0", "-c:a", "pcm_s24le"]),
        ("s32-stereo-96k", ["-f", "lavfi", "-i", "anoisesrc=sample_rate=96000:duration=0.4:seed=7", "-ac", "2", "-c:a", "pcm_s32le"]),
        ("f32-stereo", ["-f", "lavfi", "-i", "anoisesrc=sample_rate=48000:duration=0.6:seed=9:amplitude=1", "-ac", "2", "-af", "volume=1.4", "-c:a", "pcm_f32le"]),
        ("f64-mono", ["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=32000:duration=0.3", "-c:a", "pcm_f64le"]),
        ("s16-quad-tags", ["-f", "lavfi", "-i", "sine=frequency=220:sample_rate=22050:duration=0.5", "-ac", "4",
                           "-metadata", "title=Serve, take 3", "-metadata", "artist=Lab 2", "-metadata", "comment=näive ünïcode",
                           "-metadata", "date=2026", "-c:a", "pcm_s16le"]),
    ]

    /// WAVs FFmpeg must read: RF64, a broadcast-wave `bext` chunk, ADPCM, a cut data chunk,
    /// and S/PDIF-wrapped AC-3 in 16-bit stereo.
    static let leftToFFmpeg: [(name: String, arguments: [String])] = [
        ("rf64", ["-f", "lavfi", "-i", "sine=sample_rate=48000:duration=0.5", "-c:a", "pcm_s16le", "-rf64", "always"]),
        ("bext", ["-f", "lavfi", "-i", "sine=sample_rate=48000:duration=0.5", "-c:a", "pcm_s16le", "-write_bext", "1",
                  "-metadata", "description=take 3"]),
        ("adpcm", ["-f", "lavfi", "-i", "sine=sample_rate=22050:duration=0.5", "-c:a", "adpcm_ms"]),
    ]

    static func path(_ name: String, _ arguments: [String]) throws -> String {
        try FixtureCache.shared.path(for: "native-wav-\(name)", extension: "wav", arguments: ["-y", "-v", "error"] + arguments)
    }

    /// FFmpeg's view of `path`, read by its demuxer from a copy (this process may have read
    /// `path` itself natively, and remembers what it read).
    static func ffmpegView(_ path: String) throws -> MediaFile {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("native-wav-\(UUID().uuidString).wav").path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        var file = try Demuxer(path: copy).file
        file.path = path
        return file
    }

    @Test(arguments: readable.map(\.name))
    func describesLikeFFmpeg(_ name: String) throws {
        let path = try Self.path(name, try #require(Self.readable.first { $0.name == name }).arguments)
        let wav = try #require(WAVFile(path: path), "the native reader refused \(name)")
        let native = MediaFile(wav: wav)
        let ffmpeg = try Self.ffmpegView(path)
        let (nativeText, ffmpegText) = (try native.jsonText(), try ffmpeg.jsonText())
        #expect(native == ffmpeg, "\(name): native \(nativeText)\nFFmpeg \(ffmpegText)")
    }

    @Test(arguments: readable.map(\.name))
    func decodesLikeFFmpeg(_ name: String) throws {
        let path = try Self.path(name, try #require(Self.readable.first { $0.name == name }).arguments)
        let wav = try #require(WAVFile(path: path))
        let native = try Self.planarFloat(WAVFrameReader(wav))
        let ffmpeg = try Self.planarFloat(FrameReader(path: path, stream: 0))
        #expect(native.count == ffmpeg.count && native.first?.count == ffmpeg.first?.count)
        #expect(native.first?.count == Int(wav.frameCount))
        #expect(native == ffmpeg, "\(name): the samples differ")

        // From a seek: the same first timestamp and the same samples after it.
        let time = MediaTime(seconds: Rational(2, 10))
        let (nativeReader, ffmpegReader) = (try WAVFrameReader(wav), try FrameReader(path: path, stream: 0))
        try nativeReader.seek(to: time)
        try ffmpegReader.seek(to: time)
        let (a, b) = (try #require(try nativeReader.next()), try #require(try ffmpegReader.next()))
        #expect(a.presentationTime == b.presentationTime)
        let count = min(a.sampleCount, b.sampleCount)
        let format = AudioFormat(sampleRate: wav.sampleRate, layout: wav.channelLayout.specified)
        let (x, y) = (try Resampler(from: a.audioFormat, to: format).convert(a).floatChannels(),
                      try Resampler(from: b.audioFormat, to: format).convert(b).floatChannels())
        #expect(x.map { $0.prefix(count) } == y.map { $0.prefix(count) })
    }

    @Test(arguments: leftToFFmpeg.map(\.name))
    func leavesOthersToFFmpeg(_ name: String) throws {
        let path = try Self.path(name, try #require(Self.leftToFFmpeg.first { $0.name == name }).arguments)
        #expect(WAVFile(path: path) == nil)
        #expect(try MediaFile(path: path) == (try Self.ffmpegView(path)))
        #expect(try AudioFrames.open(path: path, stream: 0) is FrameReader)
    }

    @Test func leavesCutAndSPDIFFilesToFFmpeg() throws {
        let folder = try FixtureCache.shared.scratchFolder("native-wav")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The data chunk says more than the file holds.
        let whole = try Data(contentsOf: URL(fileURLWithPath: try Self.path(Self.readable[0].name, Self.readable[0].arguments)))
        let cut = folder.appendingPathComponent("cut.wav")
        try whole.prefix(whole.count - 1000).write(to: cut)
        #expect(WAVFile(path: cut.path) == nil)
        #expect(try MediaFile(path: cut.path) == (try Self.ffmpegView(cut.path)))

        // AC-3 in S/PDIF bursts, stored as 16-bit stereo PCM: FFmpeg finds the AC-3.
        let ac3 = folder.appendingPathComponent("tone.ac3").path
        let bursts = folder.appendingPathComponent("tone.spdif").path
        let wrapped = folder.appendingPathComponent("spdif.wav").path
        try runChecked("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=sample_rate=48000:duration=0.5", "-ac", "2", "-c:a", "ac3", ac3])
        try runChecked("ffmpeg", ["-v", "error", "-i", ac3, "-c", "copy", "-f", "spdif", bursts])
        try runChecked("ffmpeg", ["-v", "error", "-f", "s16le", "-ar", "48000", "-ac", "2", "-i", bursts, "-c:a", "pcm_s16le", wrapped])
        #expect(WAVFile(path: wrapped) == nil)
        #expect(try MediaFile(path: wrapped).audioStreams.first?.codec.name == "ac3")
    }

    /// Coded audio stored as 16-bit stereo "PCM", which FFmpeg finds by probing the data: left
    /// to FFmpeg, which says what it is (MP3 is `WAVProbingTests`' case).
    @Test(arguments: [("adts", "aac", "aac"), ("ac3", "ac3", "ac3"), ("eac3", "eac3", "eac3"), ("dts", "dca", "dts"), ("mp2", "mp2", "mp2")])
    func leavesCodedAudioLabelledPCMToFFmpeg(format: String, encoder: String, codec: String) throws {
        let folder = try FixtureCache.shared.scratchFolder("native-wav-coded")
        defer { try? FileManager.default.removeItem(at: folder) }
        let coded = folder.appendingPathComponent("tone.\(format)").path
        try runChecked("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=sample_rate=48000:duration=1", "-ac", "2",
                                  "-c:a", encoder, "-strict", "-2", "-f", format, coded])
        let payload = try Data(contentsOf: URL(fileURLWithPath: coded))
        func le<T: FixedWidthInteger>(_ value: T) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }
        var wav = Data("RIFF".utf8) + le(UInt32(36 + payload.count)) + Data("WAVEfmt ".utf8) + le(UInt32(16))
        wav += le(UInt16(1)) + le(UInt16(2)) + le(UInt32(48000)) + le(UInt32(192_000)) + le(UInt16(4)) + le(UInt16(16))
        wav += Data("data".utf8) + le(UInt32(payload.count & ~3)) + payload.prefix(payload.count & ~3)
        let path = folder.appendingPathComponent("labelled-pcm.wav").path
        try wav.write(to: URL(fileURLWithPath: path))
        #expect(WAVFile(path: path) == nil)
        let ffmpeg = try Self.ffmpegView(path)
        #expect(ffmpeg.audioStreams.first?.codec.name == codec)
        #expect(try MediaFile(path: path) == ffmpeg)
    }

    /// Every sample of the reader's stream as planar float, converted as exports convert them.
    static func planarFloat(_ reader: any AudioFrameReading) throws -> [[Float]] {
        var channels: [[Float]] = []
        var resampler: Resampler?
        while let frame = try reader.next() {
            let format = AudioFormat(sampleRate: frame.sampleRate, layout: frame.audioFormat.layout.specified)
            if resampler == nil { resampler = try Resampler(from: frame.audioFormat, to: format) }
            let converted = try resampler!.convert(frame).floatChannels()
            if channels.isEmpty { channels = converted } else { for c in channels.indices { channels[c] += converted[c] } }
        }
        return channels
    }
}
