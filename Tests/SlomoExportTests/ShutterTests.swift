import Foundation
import SlomoCore
import SlomoExport
import SlomoMedia
import SlomoTestSupport
import Testing

/// Shutter emulation (`--shutter`): a speed-up blurs as a camera at the output rate would have
/// drawn it. A white bar moves 8 px a source frame at 240 fps; 4x into 30 fps with a 180°
/// shutter, each output frame sees 16 source frames: a trail 128 px long, the mean of their
/// light as NumPy computes it from the same decoded pictures.
@Suite struct ShutterTests {
    /// 1.2 s of 1920x32 at 240 fps: black, a white bar 8 px wide at x = 8n. Lossless (x264 qp 0).
    static var bar: String {
        get throws {
            let pattern = "color=c=black:size=1920x32:rate=240:duration=1.2[bg];color=c=white:size=8x32:rate=240:duration=1.2[bar];"
                + "[bg][bar]overlay=x='mod(8*n,1912)':y=0:shortest=1,format=yuv420p"
            return try FixtureCache.shared.path(for: "shutterBar", extension: "mp4", arguments: [
                "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i", pattern,
                "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-g", "48"])
        }
    }

    static func export(_ input: String, sections: [String], shutter: Shutter, codec: VideoCodec = .ffv1,
                       name: String) throws -> (path: String, map: TimeMap) {
        let composition = try Composition(retiming: try MediaFile(path: input), sections: sections)
        let output = try FixtureCache.shared.scratchFolder("shutter").appendingPathComponent(name).path
        var video = VideoExportSettings(codec: codec, shutter: shutter)
        if codec == .h264 { video.preset = "ultrafast" }
        try ExportSession(composition: composition, to: output, settings: ExportSettings(mode: .constantFrameRate(Rational(30))),
                          video: video).run()
        return (output, try composition.clips[0].timeMap())
    }

    /// Row 16 of the luma of every picture of a 1920x32 output, as coded (limited range: black 16).
    static func rows(_ path: String) throws -> [[UInt8]] {
        let (status, data, _) = try runCapturingFiles("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-f", "rawvideo",
                                                                 "-pix_fmt", "yuv420p", "-"])
        #expect(status == 0)
        let picture = 1920 * 32 * 3 / 2
        return stride(from: 0, to: data.count - picture + 1, by: picture).map { Array(data[$0 + 16 * 1920 ..< $0 + 17 * 1920]) }
    }

    /// Columns from the first to the last that the bar lit (luma ≥ 19: light ≥ 0.3 %).
    static func trail(_ row: [UInt8]) -> Int {
        guard let first = row.firstIndex(where: { $0 >= 19 }), let last = row.lastIndex(where: { $0 >= 19 }) else { return 0 }
        return last - first + 1
    }

    /// The slots of the 4x section (source 0.1-1.1 s: output 0.1-0.35 s).
    static let sectionSlots = 3..<10

    @Test func aSpeedUpBlursSixteenFramesLongInLight() throws {
        let (output, map) = try Self.export(try Self.bar, sections: ["0.1-1.1x4"], shutter: Shutter(angle: Rational(180)), name: "blur.mkv")
        let rows = try Self.rows(output)
        let lengths = Self.sectionSlots.map { Self.trail(rows[$0]) }
        // NumPy's mean in light of the 16 decoded source pictures each slot's shutter saw.
        let windows = Self.sectionSlots.map { slot -> [Int] in
            let open = map.sourceTime(at: MediaTime(seconds: Rational(Int64(slot), 30)))
            let first = Int(open.doubleSeconds * 240 + 0.5)
            return Array(first ..< first + 16)
        }
        let judged = try Python.json("""
            import json, subprocess, sys, numpy as np
            source, output, windows = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
            def frames(path):    # the luma planes, as coded (limited range)
                raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"],
                                     capture_output=True, check=True).stdout
                return np.frombuffer(raw, np.uint8).reshape(-1, 48, 1920)[:, :32].astype(np.float64)
            def light(y):      # BT.709, limited range: the inverse of the camera curve
                v = np.clip((y - 16) / 219, 0, 1)
                return np.where(v < 0.081, v / 4.5, ((v + 0.099) / 1.099) ** (1 / 0.45))
            def coded(l):
                v = np.where(l < 0.018, 4.5 * l, 1.099 * l ** 0.45 - 0.099)
                return 16 + 219 * v
            src, out = frames(source), frames(output)
            result = []
            for slot, window in zip(range(\(Self.sectionSlots.lowerBound), \(Self.sectionSlots.upperBound)), windows):
                expected = coded(np.mean([light(src[i]) for i in window], axis=0))
                gamma = np.mean([src[i] for i in window], axis=0)
                mse = np.mean((out[slot] - expected) ** 2)
                result.append({"psnr": 99.0 if mse == 0 else 10 * np.log10(255 ** 2 / mse),
                               "trail": float(expected[16].max()), "gamma": float(gamma[16].max())})
            print(json.dumps(result))
            """, [try Self.bar, output, String(decoding: try JSONEncoder().encode(windows), as: UTF8.self)]) as? [[String: Double]] ?? []
        let psnrs = judged.compactMap { $0["psnr"] }
        print("--shutter 180 of 4x at 30 fps: trails \(lengths) px (16 frames × 8 px = 128); PSNR against NumPy's mean in light "
              + psnrs.map { String(format: "%.1f", $0) }.joined(separator: " ") + " dB; the trail's level "
              + String(format: "%.0f in light, %.0f averaging coded values", judged.first?["trail"] ?? 0, judged.first?["gamma"] ?? 0))
        #expect(lengths.allSatisfy { abs($0 - 128) <= 1 })
        #expect(psnrs.count == Self.sectionSlots.count && psnrs.allSatisfy { $0 >= 50 })
        // Outside the section (rate 1) each exposure sees 4 source frames: 32 px.
        #expect(abs(Self.trail(rows[1]) - 32) <= 1 && abs(Self.trail(rows[Self.sectionSlots.upperBound + 2]) - 32) <= 1)
    }

    /// A ramp from 1 into 4 and back: each frame's trail is as long as the source its shutter
    /// saw through the map, frame by frame.
    @Test func aRampChangesTheBlurAsTheMapSays() throws {
        let (output, map) = try Self.export(try Self.bar, sections: ["0.1-1.1x4:ramp=0.4"], shutter: Shutter(angle: Rational(180)),
                                            name: "ramp.mkv")
        let rows = try Self.rows(output)
        var report: [String] = [], worst = 0
        for slot in 1..<min(rows.count, 16) {
            let open = map.sourceTime(at: MediaTime(seconds: Rational(Int64(slot), 30))).doubleSeconds
            let close = map.sourceTime(at: MediaTime(seconds: Rational(Int64(2 * slot + 1), 60))).doubleSeconds
            // The frames the shutter saw for a clear share (≥ 2 %) and for any (≥ 0.1 %) of its time: the trail lies between.
            func span(_ share: Double) -> Int {
                let frames = (Int(open * 240)...Int(close * 240)).filter { k in
                    min(close, Double(k + 1) / 240) - max(open, Double(k) / 240) >= share * (close - open)
                }
                return 8 * frames.count
            }
            let measured = Self.trail(rows[slot])
            report.append("\(measured) [\(span(0.02))…\(span(0.001))]")
            #expect(measured >= span(0.02) - 1 && measured <= span(0.001) + 1, "slot \(slot): \(measured) px")
            worst = max(worst, measured)
        }
        print("--shutter 180 through a ramp into 4x: trails (px) [as the map says] " + report.joined(separator: ", "))
        #expect(worst >= 127, "the ramp reaches 4x")
    }

    /// A slow section's exposure (shorter than a source picture's time on screen) with `samples`
    /// is the mean in light of that many pictures made by optical flow across it: with 4 at 180°
    /// into 30 fps, the pictures a 480 fps export interpolates at output frames 16n + 1, 3, 5, 7.
    /// A textured bar (flow needs texture to follow) moving 12 px a source frame at 24 fps, at 0.5.
    @Test func samplesFillASlowExposureWithInterpolatedPictures() throws {
        let pattern = "color=c=black:size=960x64:rate=24:duration=2[bg];color=c=white:size=32x64:rate=24:duration=2,"
            + "format=gray,geq=lum='150+90*sin(X*0.9)*cos(Y*0.7)',format=yuv420p[bar];"
            + "[bg][bar]overlay=x='mod(12*n,928)':y=0:shortest=1,format=yuv420p"
        let input = try FixtureCache.shared.path(for: "shutterTexturedBar2", extension: "mp4", arguments: [
            "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i", pattern,
            "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-g", "12"])
        let folder = try FixtureCache.shared.scratchFolder("shutter-samples")
        func export(_ fps: Int, _ shutter: Shutter, to name: String) throws -> String {
            let composition = try Composition(retiming: try MediaFile(path: input), sections: ["0.5-1.5x0.5:frames=interpolate"])
            let output = folder.appendingPathComponent(name).path
            try ExportSession(composition: composition, to: output, settings: ExportSettings(mode: .constantFrameRate(Rational(Int64(fps)))),
                              video: VideoExportSettings(codec: .ffv1, shutter: shutter)).run()
            return output
        }
        let sampled = try export(30, Shutter(angle: Rational(180), samples: 4), to: "sampled.mkv")
        let fine = try export(480, .instant, to: "fine.mkv")
        let psnrs = try Python.json("""
            import json, subprocess, sys, numpy as np
            def frames(path):
                raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"],
                                     capture_output=True, check=True).stdout
                return np.frombuffer(raw, np.uint8).reshape(-1, 96, 960)[:, :64].astype(np.float64)
            def light(y):
                v = np.clip((y - 16) / 219, 0, 1)
                return np.where(v < 0.081, v / 4.5, ((v + 0.099) / 1.099) ** (1 / 0.45))
            def coded(l):
                return 16 + 219 * np.where(l < 0.018, 4.5 * l, 1.099 * l ** 0.45 - 0.099)
            sampled, fine = frames(sys.argv[1]), frames(sys.argv[2])
            result = []
            for n in range(16, 74):    # the section's slots: output 0.5-2.5 s
                expected = coded(np.mean([light(fine[16 * n + k]) for k in (1, 3, 5, 7)], axis=0))
                mse = np.mean((sampled[n] - expected) ** 2)
                result.append(99.0 if mse == 0 else 10 * np.log10(255 ** 2 / mse))
            print(json.dumps(result))
            """, [sampled, fine]) as? [Double] ?? []
        print("--shutter 180 --shutter-samples 4 at 0.5x of 24 fps: \(psnrs.count) slots, PSNR against the mean in light of the 480 fps "
              + "export's interpolated pictures \(String(format: "%.1f", psnrs.min() ?? 0))–\(String(format: "%.1f", psnrs.max() ?? 0)) dB")
        #expect(psnrs.count == 58)
        #expect(psnrs.allSatisfy { $0 >= 45 })
    }

    @Test func angleZeroIsTodaysOutputBitForBit() throws {
        let input = try Fixture.videoOnly.path
        let (instant, _) = try Self.export(input, sections: ["0.5-1.5x4"], shutter: .instant, codec: .h264, name: "instant.mp4")
        let (zero, _) = try Self.export(input, sections: ["0.5-1.5x4"], shutter: Shutter(angle: Rational(0), samples: 1), codec: .h264,
                                        name: "zero.mp4")
        let hashes = try PassthroughTimingTests.packetHashes(instant), zeroHashes = try PassthroughTimingTests.packetHashes(zero)
        print("--shutter 0: \(zeroHashes.count) packets, \(zip(hashes, zeroHashes).filter { $0 != $1 }.count) differ from no shutter")
        #expect(hashes == zeroHashes && !hashes.isEmpty)
    }

    /// HLG 10-bit through the shutter: 10 bits, HLG's tags, and a blur mixed in HLG's scene light.
    @Test func hlgKeepsItsBitsAndTags() throws {
        let (output, _) = try Self.export(try Fixture.hlg.path, sections: ["0.2-0.8x4"], shutter: Shutter(angle: Rational(270)),
                                          codec: .hevc, name: "hlg.mov")
        let video = try #require(try FFprobe(output).stream("video"))
        print("--shutter 270 of HLG: \(video["pix_fmt"] ?? "?"), \(video["color_transfer"] ?? "?"), \(video["color_primaries"] ?? "?")")
        #expect(video["pix_fmt"] as? String == "yuv420p10le")
        #expect(video["color_transfer"] as? String == "arib-std-b67" && video["color_primaries"] as? String == "bt2020")
    }

    @Test(arguments: [
        (["export", "--section", "2-3x4", "--cfr", "30", "--shutter", "400"], "--shutter 400: expected an angle from 0 to 360 degrees"),
        (["retime", "--section", "2-3x4", "--shutter", "180"], "--shutter blurs frames as they are rendered: add --cfr 30"),
        (["export", "--section", "2-3x4", "--cfr", "30", "--shutter", "wide"], "--shutter expects an angle in degrees such as 180"),
        (["export", "--section", "2-3x4", "--cfr", "30", "--shutter", "180", "--shutter-samples", "0"],
         "--shutter-samples 0: expected 1 to 64 pictures an exposure"),
    ])
    func badShuttersAreUsageErrors(arguments: [String], message: String) throws {
        let folder = try FixtureCache.shared.scratchFolder("shutter-bad")
        let result = try Slomo.run([arguments[0], try Fixture.flashAndBeep.path] + arguments.dropFirst()
                                   + ["-o", folder.appendingPathComponent("out.mp4").path])
        print("\(arguments.joined(separator: " ")): exit \(result.status), \(result.standardError)")
        #expect(result.status == 64)
        #expect(result.standardError.contains(message))
    }
}
