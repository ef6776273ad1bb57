import Foundation
import SlomoCore
import SlomoExport
import SlomoMedia
import SlomoTestSupport
import Testing

/// Helpers for constant-frame-rate export tests.
enum CFR {
    /// Exports `input` retimed by `sections` at `fps` into a fresh folder.
    static func export(_ input: String, sections: [String], fps: Rational = Rational(30),
                       video: VideoExportSettings = VideoExportSettings(preset: "ultrafast"),
                       audio: TimePitchAlgorithm = .varispeed, fileExtension: String = "mp4",
                       progress: (ExportProgress) -> Void = { _ in }) throws -> (path: String, session: ExportSession, result: ExportResult) {
        let composition = try Composition(retiming: try MediaFile(path: input), sections: sections)
        let output = try FixtureCache.shared.scratchFolder("cfr").appendingPathComponent("out.\(fileExtension)").path
        let session = ExportSession(composition: composition, to: output,
                                    settings: ExportSettings(mode: .constantFrameRate(fps), audioAlgorithm: audio),
                                    video: video)
        let result = try session.run(progress: progress)
        return (output, session, result)
    }

    /// The flashes and beeps of a flash-and-beep export (flashes at source k + 0.5 s), each
    /// flash checked to lie within one output `frame` of where `map` sends it; also the mapped
    /// times and the worst flash offset.
    static func flashesAndBeeps(_ output: String, map: TimeMap, frame: Double) throws
        -> (flashes: [Double], beeps: [Double], expected: [Double], worstFlash: Double) {
        let expected = (0..<10).map { map.outputTime(at: MediaTime(seconds: Rational(2 * Int64($0) + 1, 2))).doubleSeconds }
        let flashes = try flashStarts(output, frameInterval: frame)
        let beeps = try SyncProbe.beepOnsets(output)
        #expect(flashes.count == expected.count, "flashes at \(flashes), expected \(expected)")
        #expect(beeps.count == expected.count, "beeps at \(beeps)")
        var worstFlash = 0.0
        for (flash, target) in zip(flashes, expected) {
            worstFlash = max(worstFlash, abs(flash - target))
            #expect(abs(flash - target) <= frame + 1e-6, "flash at \(flash) s, map says \(target) s")
        }
        return (flashes, beeps, expected, worstFlash)
    }

    /// Checks that `output`'s video is 10-bit HLG HEVC tagged for Apple players; returns its
    /// ffprobe stream.
    @discardableResult
    static func expectTenBitHLG(_ output: String) throws -> [String: Any] {
        let video = try #require(try FFprobe(output).stream("video"))
        #expect(video["pix_fmt"] as? String == "yuv420p10le")
        #expect(video["color_primaries"] as? String == "bt2020")
        #expect(video["color_transfer"] as? String == "arib-std-b67")
        #expect(video["color_space"] as? String == "bt2020nc")
        #expect(video["codec_tag_string"] as? String == "hvc1")
        return video
    }

    /// Every decoded picture of the first video stream as raw bytes in `pixelFormat`.
    static func pictures(_ path: String, pixelFormat: String = "gray", width: Int, height: Int) throws -> [[UInt8]] {
        let (status, data, _) = try runCapturingFiles("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-map", "0:v:0",
                                                                 "-f", "rawvideo", "-pix_fmt", pixelFormat,
                                                                 "-fps_mode", "passthrough", "-"])
        guard status == 0 else { throw ExportError(.invalidPlan, "ffmpeg could not decode \(path)") }
        let bytesPerPixel = pixelFormat == "gray" ? 1.0 : pixelFormat == "yuv420p" ? 1.5 : 3.0
        let size = Int(Double(width * height) * bytesPerPixel)
        let bytes = [UInt8](data)
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { Array(bytes[$0 ..< $0 + size]) }
    }

    /// What ffmpeg says while decoding the whole file (empty when it decodes cleanly).
    static func decodeErrors(_ path: String) throws -> String {
        try runCommand("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-f", "null", "-"]).standardError
    }

    /// The first time of each run of consecutive bright pictures (`SyncProbe.flashTimes` lists
    /// every bright picture; a flash lasts several output frames in slow sections).
    static func flashStarts(_ path: String, frameInterval: Double) throws -> [Double] {
        var starts: [Double] = []
        var last = -1.0
        for time in try SyncProbe.flashTimes(path) {
            if time - last > frameInterval * 1.5 { starts.append(time) }
            last = time
        }
        return starts
    }
}
