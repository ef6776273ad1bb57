import Foundation
import SlomoConcurrency
import SlomoCore
import SlomoMedia
import SlomoTestSupport
import Testing

/// Real media through the real libraries: decode, filter, convert, encode, mux; then ffprobe
/// checks the result and the live counters show every packet and frame was freed.
@Suite struct RoundTripTests {
    /// Decodes every frame of the first stream of a kind.
    static func decodeAll(_ path: String, kind: StreamInfo.Kind) throws -> [Frame] {
        let demuxer = try Demuxer(path: path)
        let index = try #require(demuxer.file.streams.first { $0.kind == kind }?.index)
        let decoder = try Decoder(demuxer: demuxer, stream: index)
        var frames: [Frame] = []
        while let packet = try demuxer.read() {
            guard packet.streamIndex == index else { continue }
            frames += try decoder.decode(packet)
        }
        return frames + (try decoder.decode(nil))
    }

    @Test func decodesEveryVideoFrameInOrder() throws {
        let frames = try Self.decodeAll(try Fixture.videoOnly.path, kind: .video)
        #expect(frames.count == 120)
        let times = frames.compactMap(\.presentationTime)
        #expect(times.count == 120)
        #expect(zip(times.dropFirst(), times).allSatisfy { $0 - $1 == MediaTime(seconds: Rational(1, 60)) })
        #expect(frames.allSatisfy { $0.width == 320 && $0.height == 240 && $0.pixelFormat == .yuv420p })
    }

    @Test func decodesAudio() throws {
        let frames = try Self.decodeAll(try Fixture.audioOnly.path, kind: .audio)
        let samples = frames.reduce(0) { $0 + $1.sampleCount }
        // AAC adds its priming samples; the decoder drops them, leaving 2 s of audio.
        #expect(abs(samples - 96000) <= 1024)
        #expect(frames.allSatisfy { $0.sampleRate == 48000 && $0.channelCount == 2 })
    }

    @Test func encodesAndMuxesVideo() throws {
        let frames = try Self.decodeAll(try Fixture.videoOnly.path, kind: .video)
        let output = try FixtureCache.shared.scratchFolder("encode").appendingPathComponent("out.mp4").path
        let muxer = try Muxer(path: output)
        let settings = VideoEncoderSettings(codec: "libx264", width: 160, height: 120, pixelFormat: .yuv420p,
                                            timeBase: Rational(1, 60), frameRate: Rational(60),
                                            options: ["preset": "ultrafast", "crf": "30"])
        let encoder = try Encoder(video: settings, globalHeader: muxer.needsGlobalHeader)
        let stream = try muxer.addStream(for: encoder)
        try muxer.writeHeader()
        let scaler = try Scaler(width: 320, height: 240, format: .yuv420p, toWidth: 160, height: 120, format: .yuv420p)
        for (number, frame) in frames.enumerated() {
            let small = try scaler.scale(frame)
            small.pts = Int64(number)
            small.timeBase = Rational(1, 60)
            for packet in try encoder.encode(small) { try muxer.write(packet, stream: stream) }
        }
        for packet in try encoder.encode(nil) { try muxer.write(packet, stream: stream) }
        #expect(!FileManager.default.fileExists(atPath: output))
        try muxer.finish()
        #expect(!FileManager.default.fileExists(atPath: muxer.temporaryPath))

        let probed = try #require(try FFprobe(output).stream("video"))
        #expect(probed["nb_frames"] as? String == "120")
        #expect(probed["width"] as? Int == 160 && probed["height"] as? Int == 120)
        #expect(probed["r_frame_rate"] as? String == "60/1")
        #expect(try runChecked("ffmpeg", ["-v", "error", "-i", output, "-f", "null", "-"]).standardError.isEmpty)
    }

    @Test func encodesAudioThroughTheResampler() throws {
        let frames = try Self.decodeAll(try Fixture.audioOnly.path, kind: .audio)
        let output = try FixtureCache.shared.scratchFolder("audio").appendingPathComponent("out.wav").path
        let muxer = try Muxer(path: output)
        let target = AudioFormat(sampleRate: 44100, layout: .mono, sampleFormat: .int16)
        let encoder = try Encoder(audio: AudioEncoderSettings(codec: "pcm_s16le", format: target), globalHeader: muxer.needsGlobalHeader)
        let stream = try muxer.addStream(for: encoder)
        try muxer.writeHeader()
        let resampler = try Resampler(from: frames[0].audioFormat, to: target)
        var written = 0
        for frame in frames.map(Optional.some) + [nil] {
            let converted = try resampler.convert(frame)
            guard converted.sampleCount > 0 else { continue }
            converted.pts = Int64(written)
            written += converted.sampleCount
            for packet in try encoder.encode(converted) { try muxer.write(packet, stream: stream) }
        }
        for packet in try encoder.encode(nil) { try muxer.write(packet, stream: stream) }
        try muxer.finish()
        let probed = try #require(try FFprobe(output).stream("audio"))
        #expect(probed["sample_rate"] as? String == "44100" && probed["channels"] as? Int == 1)
        let inputSamples = frames.reduce(0) { $0 + $1.sampleCount }
        #expect(abs(written - inputSamples * 44100 / 48000) <= 2)
    }

    @Test func filterGraphScalesAndKeepsTimestamps() throws {
        let frames = try Self.decodeAll(try Fixture.videoOnly.path, kind: .video)
        let first = frames[0]
        let graph = try FilterGraph(video: .init(width: first.width, height: first.height, pixelFormat: first.pixelFormat,
                                                 timeBase: first.timeBase),
                                    description: "scale=64:48,format=gray")
        var output: [Frame] = []
        for frame in frames { output += try graph.process(frame) }
        output += try graph.process(nil)
        #expect(output.count == frames.count)
        #expect(output.allSatisfy { $0.width == 64 && $0.height == 48 && $0.pixelFormat == .gray })
        #expect(output.map(\.presentationTime) == frames.map(\.presentationTime))
    }

    @Test(arguments: [Fixture.rotated, Fixture.hlg])
    func streamCopyKeepsSideDataAndColour(_ fixture: Fixture) throws {
        let input = try fixture.path
        let output = try FixtureCache.shared.scratchFolder("copy").appendingPathComponent("copy.mov").path
        let demuxer = try Demuxer(path: input)
        let video = try #require(demuxer.file.videoStream)
        let muxer = try Muxer(path: output)
        let stream = try muxer.addStream(copying: video.index, of: demuxer)
        try muxer.writeHeader()
        var copied = 0
        while let packet = try demuxer.read() {
            guard packet.streamIndex == video.index else { continue }
            try muxer.write(packet, stream: stream)
            copied += 1
        }
        try muxer.finish()
        let copy = try #require(try MediaFile(path: output).videoStream)
        #expect(copy.video?.rotation == video.video?.rotation)
        #expect(copy.video?.color == video.video?.color)
        #expect(copy.video?.hdr == video.video?.hdr)
        #expect(copy.codec.tag == video.codec.tag)
        #expect(copy.frameCount == copied)
    }

    @Test func muxerNeverReplacesWithoutPermission() throws {
        let folder = try FixtureCache.shared.scratchFolder("overwrite")
        let existing = folder.appendingPathComponent("taken.mov").path
        _ = FileManager.default.createFile(atPath: existing, contents: Data("keep me".utf8))
        let refused = try #require(throws: MediaError.self) { try Muxer(path: existing) }
        #expect(refused.kind == .outputExists)
        let missing = try #require(throws: MediaError.self) { try Muxer(path: folder.path + "/nope/out.mov") }
        #expect(missing.kind == .outputFolderMissing)

        // Dropped unfinished: the temporary file goes, the existing file stays as it was. The
        // temporary is an unnamed file reached through /proc/self/fd/N (a descriptor number
        // that a test running alongside may reuse at once), or a named partial in the folder;
        // so what is checked is the file it resolved to, not the path.
        var temporaryFile = ""
        do {
            let muxer = try Muxer(path: existing, overwrite: true)
            let demuxer = try Demuxer(path: try Fixture.videoOnly.path)
            try muxer.addStream(copying: 0, of: demuxer)
            try muxer.writeHeader()
            temporaryFile = Self.resolvedPath(muxer.temporaryPath)
            #expect(FileManager.default.fileExists(atPath: muxer.temporaryPath))
            withExtendedLifetime(muxer) {}
        }
        #expect(!Self.filesOpenInThisProcess().contains(temporaryFile), "\(temporaryFile) is still open")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["taken.mov"])
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me")
    }

    @Test func everyPacketAndFrameIsFreed() throws {
        let counters = try LiveObjects.tracking {
            for fixture in [Fixture.hlg, .rotated, .audioOnly, .ntsc] {
                let path = try fixture.path
                _ = try MediaFile.inspect(path: path, measureFrames: true)
                let decoded = try Self.decodeAll(path, kind: fixture == .audioOnly ? .audio : .video)
                #expect(!decoded.isEmpty)
                let output = try FixtureCache.shared.scratchFolder("live").appendingPathComponent("copy.mkv").path
                let demuxer = try Demuxer(path: path)
                let muxer = try Muxer(path: output)
                for stream in demuxer.file.streams { try muxer.addStream(copying: stream.index, of: demuxer) }
                try muxer.writeHeader()
                while let packet = try demuxer.read() { try muxer.write(packet, stream: packet.streamIndex) }
                try muxer.finish()
            }
        }
        #expect(counters.packets == 0)
        #expect(counters.frames == 0)
    }

    /// Where a path leads: the target of a /proc/self/fd link ("/folder/#123 (deleted)" for an
    /// unnamed file), else the path itself.
    static func resolvedPath(_ path: String) -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? path
    }

    /// What every descriptor of this process leads to.
    static func filesOpenInThisProcess() -> Set<String> {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return Set(descriptors.map { resolvedPath("/proc/self/fd/\($0)") })
    }
}
