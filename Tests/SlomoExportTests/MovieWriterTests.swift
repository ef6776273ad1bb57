import Foundation
import SlomoAudio
import SlomoCore
import SlomoExport
import SlomoMedia
import SlomoTestSupport
import Testing

/// `MovieWriter`: pictures and sound a program makes, judged by ffprobe and by ffmpeg's decode.
@Suite struct MovieWriterTests {
    static let red = PixelBuffer.Color(red: 255, green: 0, blue: 0)

    /// A `width`×`height` picture: black, with a 32-pixel square of `color` whose left edge is at `x`.
    static func square(_ layout: PixelBuffer.Layout, width: Int = 320, height: Int = 240, x: Int,
                       color: PixelBuffer.Color = .white) -> PixelBuffer {
        var picture = PixelBuffer(layout, width: width, height: height)
        picture.fill(x: x, y: 104, width: 32, height: 32, with: color)
        return picture
    }

    /// The luma plane `square` draws, in BT.709 limited range: 16 for black, 235 for white, 63
    /// for red (BT.601 would make it 81; red and blue swapped, 32).
    static func squareLuma(width: Int = 320, height: Int = 240, x: Int, color: PixelBuffer.Color = .white) -> [UInt8] {
        (0..<(width * height)).map { i in
            let (row, column) = (i / width, i % width)
            return (104..<136).contains(row) && (x..<x + 32).contains(column) ? color.bt709.y : 16
        }
    }

    /// The luma planes ffmpeg decodes from `path`.
    static func decodedLuma(_ path: String, width: Int = 320, height: Int = 240) throws -> [[UInt8]] {
        try CFR.pictures(path, pixelFormat: "yuv420p", width: width, height: height).map { Array($0.prefix(width * height)) }
    }

    /// Presentation times in seconds of every video packet, from ffprobe, in presentation order.
    static func presentationTimes(_ path: String) throws -> [Rational] {
        let video = try #require(try FFprobe(path).stream("video"))
        let timeBase = try #require((video["time_base"] as? String).flatMap { Rational(decimal: $0) })
        return try FFprobe.packets(path).map { Rational($0.pts) * timeBase }.sorted()
    }

    @Test func rgbaPicturesAndSoundAt60fps() throws {
        let path = try FixtureCache.shared.scratchFolder("movie-writer-rgba").appendingPathComponent("square.mp4").path
        let settings = MovieWriterSettings(width: 320, height: 240, frameRate: Rational(60),
                                           audio: .init(sampleRate: 48_000, channelCount: 2), overwrite: true)
        let writer = try MovieWriter(path: path, settings: settings)
        for n in 0..<90 {
            try writer.append(Self.square(n % 2 == 0 ? .rgba : .bgra, x: 2 * n, color: Self.red))
            // 1/60 s of a 440 Hz tone with each picture: 800 samples.
            let tone = (0..<800).map { Float(0.5 * sin(2 * Double.pi * 440 * Double(n * 800 + $0) / 48_000)) }
            try writer.append(audio: AudioBuffer(planar: [tone, tone]))
        }
        #expect(writer.progress.videoFrames == 90 && writer.progress.outputTime == MediaTime(seconds: Rational(3, 2)))
        let result = try writer.finish()
        #expect(result.videoFrames == 90 && result.audioTracks == 1)

        let probe = try FFprobe(path)
        let video = try #require(probe.stream("video"))
        #expect(video["codec_name"] as? String == "h264" && video["pix_fmt"] as? String == "yuv420p")
        #expect(video["r_frame_rate"] as? String == "60/1" && video["color_space"] as? String == "bt709")
        #expect(try Self.presentationTimes(path) == (0..<90).map { Rational(Int64($0), 60) })
        let pictures = try Self.decodedLuma(path)
        #expect(pictures.count == 90)
        let scores = [0, 1, 45, 89].map { n in
            ConstantFrameRateInterpolationTests.lumaPSNR(pictures[n], Self.squareLuma(x: 2 * n, color: Self.red), width: 320, height: 240)
        }
        print("MovieWriter RGBA/BGRA: luma PSNR of pictures 0, 1, 45, 89 against the drawing: \(scores.map { String(format: "%.1f", $0) })")
        #expect(scores.allSatisfy { $0 >= 35 })
        #expect(Self.red.bt709.y == 63 && pictures[45][120 * 320 + 100] == 63, "red in BT.709 luma")

        let audio = try #require(probe.stream("audio"))
        #expect(audio["codec_name"] as? String == "aac" && audio["channels"] as? Int == 2)
        let samples = try SyncProbe.samples(path)
        let body = samples.dropFirst(4800).dropLast(4800)
        let crossings = zip(body.dropFirst(), body).filter { $1 < 0 && $0 >= 0 }.count
        let frequency = Double(crossings) / (Double(body.count) / 48_000)
        print("MovieWriter sound: \(samples.count) samples, \(frequency) Hz")
        #expect(abs(frequency - 440) < 2)
        #expect(abs(Double(samples.count) / 48_000 - 1.5) < 0.03)
    }

    @Test func yuvPicturesAtTheirOwnTimes() throws {
        let path = try FixtureCache.shared.scratchFolder("movie-writer-yuv").appendingPathComponent("steps.mov").path
        let settings = MovieWriterSettings(width: 320, height: 240, frameRate: Rational(30),
                                           video: VideoExportSettings(codec: .prores), overwrite: true)
        let writer = try MovieWriter(path: path, settings: settings)
        let times = [Rational(0), Rational(1, 30), Rational(3, 30), Rational(4, 30)]
        for (n, time) in times.enumerated() { try writer.append(Self.square(.yuv420p, x: 40 * n), at: MediaTime(seconds: time)) }
        try writer.finish()
        let video = try #require(try FFprobe(path).stream("video"))
        #expect(video["codec_name"] as? String == "prores" && video["pix_fmt"] as? String == "yuv422p10le")
        #expect(try Self.presentationTimes(path) == times)
        let pictures = try Self.decodedLuma(path)
        for n in times.indices {
            let score = ConstantFrameRateInterpolationTests.lumaPSNR(pictures[n], Self.squareLuma(x: 40 * n), width: 320, height: 240)
            #expect(score >= 40, "picture \(n): \(score) dB")
        }
    }

    @Test func timesOffTheTimeBaseOrOutOfOrderAreRefused() throws {
        let folder = try FixtureCache.shared.scratchFolder("movie-writer-times")
        let settings = MovieWriterSettings(width: 64, height: 64, frameRate: Rational(30), overwrite: true)
        let offGrid = folder.appendingPathComponent("off-grid.mp4").path
        let writer = try MovieWriter(path: offGrid, settings: settings)
        try writer.append(PixelBuffer(.rgba, width: 64, height: 64))
        let error = try #require(throws: ExportError.self) {
            try writer.append(PixelBuffer(.rgba, width: 64, height: 64), at: MediaTime(seconds: Rational(1, 45)))
        }
        #expect(error.issue?.setting == .timeBase && error.description.contains("1/90000"), "\(error)")
        #expect(throws: ExportError.self) { try writer.finish() }
        #expect(!FileManager.default.fileExists(atPath: offGrid))

        let backwards = try MovieWriter(path: folder.appendingPathComponent("backwards.mp4").path, settings: settings)
        try backwards.append(PixelBuffer(.rgba, width: 64, height: 64), at: MediaTime(seconds: Rational(1, 30)))
        #expect(throws: ExportError.self) { try backwards.append(PixelBuffer(.rgba, width: 64, height: 64), at: .zero) }

        // With a 90 kHz time base any whole tick goes.
        var fine = settings
        fine.timeBase = Rational(1, 90_000)
        let free = folder.appendingPathComponent("free.mp4").path
        let freeWriter = try MovieWriter(path: free, settings: fine)
        for tick in [0, 2000, 5000] as [Int64] {
            try freeWriter.append(PixelBuffer(.rgba, width: 64, height: 64), at: MediaTime(ticks: tick, timeBase: Rational(1, 90_000)))
        }
        try freeWriter.finish()
        #expect(try Self.presentationTimes(free) == [0, 2000, 5000].map { Rational($0, 90_000) })
    }

    @Test func nothingIsLeftBehindAndNothingIsReplaced() throws {
        let folder = try FixtureCache.shared.scratchFolder("movie-writer-atomic")
        let existing = folder.appendingPathComponent("existing.mp4").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: existing))
        let settings = MovieWriterSettings(width: 64, height: 64, frameRate: Rational(30))
        #expect(throws: MediaError.self) { try MovieWriter(path: existing, settings: settings) }
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me")

        let cancelled = folder.appendingPathComponent("cancelled.mp4").path
        let writer = try MovieWriter(path: cancelled, settings: settings)
        try writer.append(PixelBuffer(.yuv420p, width: 64, height: 64))
        writer.cancel()
        #expect(throws: ExportError.self) { try writer.append(PixelBuffer(.yuv420p, width: 64, height: 64)) }

        let dropped = folder.appendingPathComponent("dropped.mp4").path
        do {
            let unfinished = try MovieWriter(path: dropped, settings: settings)
            try unfinished.append(PixelBuffer(.yuv420p, width: 64, height: 64))
        }
        let empty = try MovieWriter(path: folder.appendingPathComponent("empty.mp4").path, settings: settings)
        #expect(throws: ExportError.self) { try empty.finish() }
        let wrongSize = try MovieWriter(path: folder.appendingPathComponent("wrong-size.mp4").path, settings: settings)
        let sizeError = try #require(throws: ExportError.self) { try wrongSize.append(PixelBuffer(.rgba, width: 32, height: 64)) }
        #expect(sizeError.description.contains("64x64"), "\(sizeError)")

        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(left == ["existing.mp4"], "\(left)")

        #expect(throws: ExportError.self) {
            try MovieWriter(path: folder.appendingPathComponent("prores.mp4").path,
                            settings: MovieWriterSettings(width: 64, height: 64, frameRate: Rational(30),
                                                          video: VideoExportSettings(codec: .prores)))
        }
        #expect(throws: ExportError.self) {
            try MovieWriter(path: folder.appendingPathComponent("opus.mp4").path,
                            settings: MovieWriterSettings(width: 64, height: 64, frameRate: Rational(30),
                                                          audio: .init(sampleRate: 44_100, codec: .opus)))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["existing.mp4"])
    }
}
