import Foundation
import SlomoTestSupport
import Testing

/// Issue 16, item 9: one vocabulary. `capture --codec` takes the codec names `export` takes,
/// `--size` is the recorded picture's size as in `export`, and a source's rate is written in
/// its input, not with `--fps` (export's output rate).
@Suite struct CaptureVocabularyTests {
    @Test(arguments: [("h264", "h264", "yuv420p"), ("hevc", "hevc", "yuv420p"), ("prores", "prores", "yuv422p10le"),
                      ("ffv1", "ffv1", "yuv420p")])
    func codecNamesAreExportsNames(codec: String, stored: String, pixelFormat: String) throws {
        let path = try FixtureCache.shared.scratchFolder("capture-codec-\(codec)").appendingPathComponent("take.mov").path
        let result = try Slomo.run(["capture", "--input", "testsrc:320x240@30", "--duration", "0.5", "--codec", codec, "-o", path,
                                    "--quiet"])
        #expect(result.status == 0, "\(result.standardError)")
        let video = try #require(try FFprobe(path).stream("video"))
        #expect(video["codec_name"] as? String == stored)
        #expect(video["pix_fmt"] as? String == pixelFormat)
        let packets = try FFprobe.packets(path)
        #expect(packets.count == 15, "0.5 s at 30 fps: \(packets.count) frames")
    }

    @Test func sizeIsTheRecordedPicturesSize() throws {
        let path = try FixtureCache.shared.scratchFolder("capture-size").appendingPathComponent("take.mov").path
        let result = try Slomo.run(["capture", "--input", "testsrc:320x240@30", "--duration", "0.5", "--size", "160x120",
                                    "-o", path, "--quiet"])
        #expect(result.status == 0, "\(result.standardError)")
        let video = try #require(try FFprobe(path).stream("video"))
        #expect(video["width"] as? Int == 160 && video["height"] as? Int == 120)
    }

    @Test(arguments: [
        (["--codec", "libx264"], "expected h264, hevc, prores, ffv1 (libx264 is h264"),
        (["--fps", "60"], "a source's rate goes in its --input, e.g. x11::0@60"),
        (["--size", "321x240"], "must be even"),
    ])
    func oldSpellingsAreExplained(arguments: [String], message: String) throws {
        let path = try FixtureCache.shared.scratchFolder("capture-words").appendingPathComponent("take.mov").path
        let result = try Slomo.run(["capture", "--input", "testsrc:320x240@30", "--duration", "0.5", "-o", path] + arguments)
        #expect(result.status == 64 || (result.status == 1 && message == "must be even"), "\(result.standardError)")
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    /// Issue 37, defect 5: a codec the container cannot hold is a usage error naming both and
    /// the fix, before anything is written (it was "write header: Invalid argument").
    @Test(arguments: ["prores", "ffv1"])
    func aCodecTheContainerCannotHoldIsAUsageError(codec: String) throws {
        let folder = try FixtureCache.shared.scratchFolder("capture-container")
        let result = try Slomo.run(["capture", "--input", "testsrc:320x240@30", "--duration", "0.5", "--codec", codec,
                                    "-o", folder.appendingPathComponent("c.mp4").path])
        #expect(result.status == 64)
        #expect(result.standardError.contains(".mp4 cannot hold \(codec) video") && result.standardError.contains(".mov"),
                "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
