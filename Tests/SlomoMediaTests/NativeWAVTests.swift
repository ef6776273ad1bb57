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

    /// WAVs FFmpeg must read: RF64, a broadcast-wave `bext` chunk, ADPCM (and, below,
    /// S/PDIF-wrapped AC-3 and other coded audio labelled 16-bit PCM).
    static let leftToFFmpeg: [(name: String, arguments: [String])] = [
        ("rf64", ["-f", "lavfi", "-i", "sine=sample_rate=48000:duration=0.5", "-c:a", "pcm_s16le", "-rf64", "always"]),
        ("bext", ["-f", "lavfi", "-i", "sine=sample_rate=48000:duration=0.5", "-c:a", "pcm_s16le", "-write_bext", "1",
                  "-metadata", "description=take 3"]),
        ("adpcm", ["-f", "lavfi", "-i", "sine=sample_rate=22050:duration=0.5", "-c:a", "adpcm_ms"]),
    ]

    static func path(_ name: String, _ arguments: [String]) throws -> String {
        try FixtureCache.shared.path(for: "native-wav-\(name)", extension: "wav", arguments: ["-y", "-v", "error"] + arguments)
    }

    /// The file of fixture `name` of `fixtures`.
    static func path(_ name: String, of fixtures: [(name: String, arguments: [String])]) throws -> String {
        try path(name, try #require(fixtures.first { $0.name == name }).arguments)
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
        let path = try Self.path(name, of: Self.readable)
        let wav = try #require(WAVFile(path: path), "the native reader refused \(name)")
        let native = MediaFile(wav: wav)
        let ffmpeg = try Self.ffmpegView(path)
        let (nativeText, ffmpegText) = (try native.jsonText(), try ffmpeg.jsonText())
        #expect(native == ffmpeg, "\(name): native \(nativeText)\nFFmpeg \(ffmpegText)")
    }

    @Test(arguments: readable.map(\.name))
    func decodesLikeFFmpeg(_ name: String) throws {
        let path = try Self.path(name, of: Self.readable)
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
        let path = try Self.path(name, of: Self.leftToFFmpeg)
        #expect(WAVFile(path: path) == nil)
        #expect(try MediaFile(path: path) == (try Self.ffmpegView(path)))
        #expect(try AudioFrames.open(path: path, stream: 0) is FrameReader)
    }

    /// A data chunk the file cuts short: read as far as it goes, and said, where FFmpeg's view
    /// says nothing (and its decoder drops the last, cut packet).
    @Test func readsACutFileAndSaysSo() throws {
        let folder = try FixtureCache.shared.scratchFolder("native-wav-cut")
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = try Data(contentsOf: URL(fileURLWithPath: try Self.path(Self.readable[0].name, Self.readable[0].arguments)))
        let cut = folder.appendingPathComponent("cut.wav").path
        try whole.prefix(whole.count - 1001).write(to: URL(fileURLWithPath: cut))
        let wav = try #require(WAVFile(path: cut))
        #expect(wav.frameCount == 48000 && wav.storedFrameCount == 48000 - 251)
        let native = try MediaFile(path: cut)
        var ffmpeg = try Self.ffmpegView(cut)
        #expect(ffmpeg.damage == nil)
        ffmpeg.damage = native.damage
        #expect(native == ffmpeg)
        let damage = try #require(native.damage?.first)
        #expect(damage.kind == .truncated && damage.packets == 251 && damage.readableUntil == MediaTime(value: 47749, timescale: 48000))
        #expect(damage.message == "audio ends at 0.99 s of 1.00 s, 251 sample frames missing (file truncated?)")

        let ours = try Self.planarFloat(WAVFrameReader(wav)), theirs = try Self.planarFloat(FrameReader(path: cut, stream: 0))
        #expect(ours.first?.count == 47749)
        #expect(zip(ours, theirs).allSatisfy { $0.prefix($1.count).elementsEqual($1) } && theirs.first?.count ?? 0 > 46000)
    }

    @Test func leavesSPDIFToFFmpeg() throws {
        let folder = try FixtureCache.shared.scratchFolder("native-wav")
        defer { try? FileManager.default.removeItem(at: folder) }
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
    /// to FFmpeg, which says what it is (MP3 is `WAVProbingTests`' case, with a WAV read by
    /// `MediaFile(path:)`).
    @Test(arguments: [("adts", "aac", "aac"), ("ac3", "ac3", "ac3"), ("eac3", "eac3", "eac3"), ("dts", "dca", "dts"), ("mp2", "mp2", "mp2")])
    func leavesCodedAudioLabelledPCMToFFmpeg(format: String, encoder: String, codec: String) throws {
        let folder = try FixtureCache.shared.scratchFolder("native-wav-coded")
        defer { try? FileManager.default.removeItem(at: folder) }
        let coded = folder.appendingPathComponent("tone.\(format)").path
        try runChecked("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=sample_rate=48000:duration=1", "-ac", "2",
                                  "-c:a", encoder, "-strict", "-2", "-f", format, coded])
        let path = folder.appendingPathComponent("labelled-pcm.wav").path
        try WAVProbingTests.labelledPCM(try Data(contentsOf: URL(fileURLWithPath: coded))).write(to: URL(fileURLWithPath: path))
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
