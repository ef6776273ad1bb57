import Foundation
import SlomoCore
import SlomoExport
import SlomoMedia
import SlomoTestSupport
import Testing

/// Codecs, bit depth and HDR.
@Suite struct ConstantFrameRateCodecTests {
    @Test func hlgIntoHEVCStaysTenBitHLG() throws {
        let (output, _, _) = try CFR.export(try Fixture.hlg.path, sections: ["0.2-0.4x0.5"],
                                            video: VideoExportSettings(codec: .hevc, preset: "ultrafast"), fileExtension: "mov")
        try CFR.expectTenBitHLG(output)
    }

    @Test func proResHQFromATenBitSource() throws {
        let (output, _, _) = try CFR.export(try Fixture.hlg.path, sections: ["0.2-0.4x0.5"],
                                            video: VideoExportSettings(codec: .prores, profile: "hq"), fileExtension: "mov")
        let video = try #require(try FFprobe(output).stream("video"))
        #expect(video["codec_name"] as? String == "prores")
        #expect(video["profile"] as? String == "HQ")
        #expect(video["pix_fmt"] as? String == "yuv422p10le")
        #expect(video["color_transfer"] as? String == "arib-std-b67")
    }

    /// HDR10 whose mastering metadata is only in SEI: it reaches the output stream (mdcv/clli
    /// boxes) and, for hevc, the new SEI.
    @Test(arguments: [VideoExportSettings.Codec.hevc, .prores])
    func masteringMetadataIsKept(_ codec: VideoExportSettings.Codec) throws {
        let (output, _, _) = try CFR.export(try Fixture.pq.path, sections: ["0.2-0.4x0.5"],
                                            video: VideoExportSettings(codec: codec, preset: codec == .hevc ? "ultrafast" : nil),
                                            fileExtension: "mov")
        let stream = try runChecked("ffprobe", ["-v", "error", "-show_streams", "-select_streams", "v", output]).standardOutput
        #expect(stream.contains("color_transfer=smpte2084"))
        #expect(stream.contains("side_data_type=Mastering display metadata"))
        #expect(stream.contains("max_luminance=10000000/10000"))
        #expect(stream.contains("max_content=1000") && stream.contains("max_average=400"))
        if codec == .hevc {
            let frame = try runChecked("ffprobe", ["-v", "error", "-select_streams", "v", "-read_intervals", "%+#1",
                                                   "-show_frames", output]).standardOutput
            #expect(frame.contains("side_data_type=Mastering display metadata"))
            #expect(frame.contains("side_data_type=Content light level metadata"))
        }
    }

    @Test func hdrIntoH264IsToneMappedToBT709() throws {
        let (output, _, _) = try CFR.export(try Fixture.hlg.path, sections: ["0.2-0.4x0.5"])
        let video = try #require(try FFprobe(output).stream("video"))
        #expect(video["pix_fmt"] as? String == "yuv420p")
        #expect(video["color_primaries"] as? String == "bt709")
        #expect(video["color_transfer"] as? String == "bt709")
        #expect(try CFR.decodeErrors(output).isEmpty)
    }

    @Test func hdrIntoH264WithoutToneMappingIsRefused() throws {
        let folder = try FixtureCache.shared.scratchFolder("cfr-hdr")
        let composition = try Composition(retiming: try MediaFile(path: try Fixture.hlg.path), sections: ["0.2-0.4x0.5"])
        let session = ExportSession(composition: composition, to: folder.appendingPathComponent("out.mp4").path,
                                    settings: ExportSettings(mode: .constantFrameRate(Rational(30))),
                                    video: VideoExportSettings(toneMapping: .refuse))
        let error = #expect(throws: ExportError.self) { try session.run() }
        #expect(error?.description.contains("HDR") == true)
        #expect(error?.description.contains("use codec hevc or codec prores") == true, "\(String(describing: error))")
        #expect(error?.issue?.setting == .codec, "the setting at fault, as data")
        #expect(error?.issue?.text { "-\($0)" }.contains("use -codec hevc") == true, "front ends word the settings")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func badSettingsAreClearErrors() throws {
        let rate = Rational(30)
        func message(_ settings: VideoExportSettings, _ fps: Rational = Rational(30),
                     available: @escaping (String) -> Bool = { _ in true }) -> String {
            do {
                try settings.validate(frameRate: fps, encoderAvailable: available)
                return ""
            } catch { return "\(error)" }
        }
        #expect(message(VideoExportSettings(), Rational(0)).contains("positive"))
        #expect(message(VideoExportSettings(), Rational(-30)).contains("positive"))
        #expect(message(VideoExportSettings(), Rational(1001)).contains("at most 1000"))
        #expect(message(VideoExportSettings(size: .init(width: 641, height: 480))).contains("even"))
        #expect(message(VideoExportSettings(size: .init(width: 0, height: 480))).contains("even"))
        #expect(message(VideoExportSettings(codec: .prores, profile: "ultra")).contains("expected hq, proxy"))
        #expect(message(VideoExportSettings(codec: .prores, crf: 20)) == "crf: applies to h264 and hevc, not prores")
        #expect(message(VideoExportSettings(preset: "warp")).hasPrefix("preset warp: expected one of ultrafast"))
        #expect(!message(VideoExportSettings(), Rational(0)).contains("--"), "no command-line names in the library")
        #expect(message(VideoExportSettings(codec: .hevc), available: { $0 != "libx265" }).contains("no libx265 encoder"))
        #expect(message(VideoExportSettings(), rate) == "")
    }

    /// A number outside its range says the range as data, for a front end to use (issue 17).
    @Test(arguments: [
        (VideoExportSettings(crf: 60), Rational(30), Setting.crf, 0.0...51),
        (VideoExportSettings(), Rational(1001), .frameRate, Double.leastNonzeroMagnitude...1000),
        (VideoExportSettings(), Rational(0), .frameRate, Double.leastNonzeroMagnitude...1000),
        (VideoExportSettings(gop: 0), Rational(30), .keyframeInterval, 1...Double.infinity),
        (VideoExportSettings(bitRate: -1), Rational(30), .bitRate, SettingIssue.positive),
    ])
    func outOfRangeSettingsCarryTheirRange(settings: VideoExportSettings, fps: Rational, setting: Setting,
                                          allowed: ClosedRange<Double>) throws {
        let error = try #require(throws: ExportError.self) { try settings.validate(frameRate: fps) { _ in true } }
        #expect(error.issue?.setting == setting, "\(error)")
        #expect(error.issue?.allowed == allowed, "\(error)")
    }
}
