import Foundation
import SlomoCore
import SlomoExport
import SlomoMedia
import SlomoTestSupport

/// Helpers for constant-frame-rate export tests.
enum CFR {
    /// Exports `input` retimed by `sections` at `fps` into a fresh folder.
    static func export(_ input: String, sections: [String], fps: Rational = Rational(30),
                       video: VideoExportSettings = VideoExportSettings(preset: "ultrafast"),
                       audio: AudioAlgorithm = .varispeed, fileExtension: String = "mp4",
                       progress: (ExportProgress) -> Void = { _ in }) throws -> (path: String, session: ExportSession, result: ExportResult) {
        let composition = try Composition(retiming: try MediaFile(path: input), sections: sections)
        let output = try FixtureCache.shared.scratchFolder("cfr").appendingPathComponent("out.\(fileExtension)").path
        let session = ExportSession(composition: composition, to: output,
                                    settings: ExportSettings(mode: .constantFrameRate(fps), audioAlgorithm: audio),
                                    video: video)
        let result = try session.run(progress: progress)
        return (output, session, result)
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
