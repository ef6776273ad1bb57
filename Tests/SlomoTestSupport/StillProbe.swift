import Foundation

/// Sources for still-picture tests, made by ffmpeg, and ffmpeg as the judge of the pictures
/// slomo writes: frames decoded by number, picture files decoded to raw samples, PSNR.
public enum StillProbe {
    /// 2 s, 320x240, 25 fps `testsrc2` in lossless FFV1 RGB (`bgr0`) in .mov (time base
    /// 1/12800: frame 26 at exactly 1.04 s): every picture's pixels are known exactly.
    public static var losslessRGB: String {
        get throws {
            try FixtureCache.shared.path(for: "still-rgb", extension: "mov", arguments: [
                "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2", "-c:v", "ffv1", "-pix_fmt", "bgr0"])
        }
    }

    /// 1 s, 1024x64, 25 fps, 10-bit 4:2:0 tagged BT.2020 HLG (limited range), lossless FFV1 in
    /// .mkv: a grey ramp from Y 64 at the left to Y 940 at the right, 877 levels in a row.
    public static var hlgGradient: String {
        get throws {
            try FixtureCache.shared.path(for: "still-hlg-ramp", extension: "mkv", arguments: [
                "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
                "-f", "lavfi", "-i", "nullsrc=size=1024x64:rate=25:duration=1,format=yuv420p10le,geq=lum='64+X*876/1023':cb=512:cr=512",
                "-c:v", "ffv1", "-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc",
                "-color_range", "tv"])
        }
    }

    /// Frames `numbers` (presentation order from 0) of `path`, decoded by ffmpeg, through
    /// `filters` after the selection, as raw `pixelFormat` samples: one `Data` a frame number.
    public static func frames(_ path: String, _ numbers: [Int], pixelFormat: String, filters: String = "") throws -> [Int: Data] {
        let wanted = Array(Set(numbers)).sorted()
        let select = "select='" + wanted.map { "eq(n\\,\($0))" }.joined(separator: "+") + "'" + filters
        let (status, output, error) = try runCapturingFiles("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-vf", select,
                                                                       "-fps_mode", "passthrough", "-pix_fmt", pixelFormat,
                                                                       "-f", "rawvideo", "-"])
        guard status == 0, !wanted.isEmpty, output.count % wanted.count == 0 else {
            throw CommandFailure(description: "ffmpeg could not decode frames \(wanted) of \(path): \(String(decoding: error, as: UTF8.self))")
        }
        let size = output.count / wanted.count
        return Dictionary(uniqueKeysWithValues: wanted.enumerated().map { index, number in
            (number, output.subdata(in: index * size ..< (index + 1) * size))
        })
    }

    /// A picture file (PNG, TIFF, JPEG) decoded by ffmpeg to raw `pixelFormat` samples.
    public static func pixels(of image: String, pixelFormat: String) throws -> Data {
        let (status, output, error) = try runCapturingFiles("ffmpeg", ["-v", "error", "-nostdin", "-i", image, "-pix_fmt", pixelFormat,
                                                                       "-f", "rawvideo", "-"])
        guard status == 0 else { throw CommandFailure(description: "ffmpeg could not read \(image): \(String(decoding: error, as: UTF8.self))") }
        return output
    }

    /// ffmpeg's average PSNR (dB) of picture `a` against picture `b`, both as RGB24; 99 for
    /// identical pictures (ffmpeg's `inf`).
    public static func psnr(_ a: String, _ b: String) throws -> Double {
        let result = try runCommand("ffmpeg", ["-v", "info", "-nostdin", "-i", a, "-i", b,
                                               "-lavfi", "[0]format=rgb24[a];[1]format=rgb24[b];[a][b]psnr", "-f", "null", "-"])
        guard let text = result.standardError.firstMatch(of: /average:([0-9.]+|inf)/)?.1 else {
            throw CommandFailure(description: "no PSNR in \(result.standardError)")
        }
        return text == "inf" ? 99 : Double(text)!
    }

    /// The distinct values of the red samples of row `row` of a raw `rgb48le` picture `width` wide.
    public static func distinctRedLevels(rgb48le samples: Data, width: Int, row: Int) -> Int {
        let rowBytes = width * 6
        let bytes = [UInt8](samples.subdata(in: row * rowBytes ..< (row + 1) * rowBytes))
        return Set(stride(from: 0, to: rowBytes, by: 6).map { UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8 }).count
    }
}
