import Foundation
import SlomoCore
import SlomoMedia
import SlomoTestSupport
import Testing

/// Issue 40, stills: the picture shown at a time, found in one forward pass (packets before
/// the keyframe that matters skipped, far times reached by seeking) and written as PNG, TIFF
/// or JPEG; ffmpeg decodes the same frames as the judge.
@Suite struct StillImageTests {
    /// The luma plane of `frame`, rows packed.
    static func luma(_ frame: Frame) -> Data {
        var data = Data(capacity: frame.width * frame.height)
        for row in 0..<frame.height { data.append(frame.planeData(0)! + row * frame.lineSize(plane: 0), count: frame.width) }
        return data
    }

    /// In a 240 fps H.264 take with B-frames and a keyframe a second, times given out of order
    /// (two in one frame interval, two far apart) get exactly the pictures ffmpeg decodes as
    /// frames ⌊T·240⌋, whether the far ones are read to or seeked to.
    @Test(arguments: [MediaTime.seconds(10), MediaTime.seconds(2)])
    func picturesShownAtTimesInALongGOPTake(seekDistance: MediaTime) throws {
        let clip = try Fixture.hfr240.path
        // The last five: pictures the decoder still holds after the end of the stream was sent.
        let times = ["9.99", "0", "3.0021", "3.004", "0.5", "7.5", "9.96", "9.97", "9.98", "9.995"].map { try! MediaTime(parsing: $0) }
        let expected = times.map { Int(($0.seconds.doubleValue * 240).rounded(.down)) }
        let extractor = try StillExtractor(path: clip, seekDistance: seekDistance)
        var found: [Int: (luma: Data, time: MediaTime, index: Int?)] = [:]
        var order: [Int] = []
        try extractor.pictures(at: times) { index, picture in
            order.append(index)
            found[index] = (Self.luma(picture.frame), picture.time, picture.index)
        }
        let judge = try StillProbe.frames(clip, expected, pixelFormat: "yuv420p")
        for (index, time) in times.enumerated() {
            let still = try #require(found[index])
            let reference = try #require(judge[expected[index]])
            let same = still.luma == reference.prefix(still.luma.count)
            print("still at \(time) s (seek beyond \(seekDistance) s): picture at \(still.time) s, index \(still.index.map(String.init) ?? "unknown"), "
                  + "luma \(same ? "identical to" : "differs from") ffmpeg's frame \(expected[index])")
            #expect(same)
            #expect(still.time == MediaTime(value: Int64(expected[index]), timescale: 240))
            #expect(still.index == nil || still.index == expected[index])
        }
        #expect(order == [1, 4, 2, 3, 5, 6, 7, 8, 0, 9], "handed over in order of time")
        if seekDistance == .seconds(10) { #expect(found.values.allSatisfy { $0.index != nil }, "a pass that never seeks counts every frame") }
    }

    /// A take cut mid-GOP by stream copy starts with pictures its edit list hides (decoded for
    /// reference, then dropped): they are neither shown at 0 nor counted in indices, in a first
    /// pass or a second one.
    @Test func picturesAnEditListHidesAreNotCounted() throws {
        let clip = try FixtureCache.shared.path(for: "still-trimmed", extension: "mp4", arguments: [
            "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-ss", "0.52", "-i", try Fixture.hfr240.path,
            "-t", "1", "-c", "copy", "-an"])
        let times = [MediaTime.zero, .seconds(0.5)]
        var found: [(luma: Data, index: Int?, time: MediaTime)] = []
        let extractor = try StillExtractor(path: clip)
        try extractor.pictures(at: times) { _, picture in found.append((Self.luma(picture.frame), picture.index, picture.time)) }
        // A second pass over the same extractor starts again from the beginning.
        try extractor.pictures(at: [.zero]) { _, picture in found.append((Self.luma(picture.frame), picture.index, picture.time)) }
        let judge = try StillProbe.frames(clip, [0, 120], pixelFormat: "yuv420p")
        for ((luma, index, time), expected) in zip(found, [0, 120, 0]) {
            let same = luma == judge[expected]?.prefix(luma.count)
            print("cut take: picture at \(time) s, index \(index.map(String.init) ?? "unknown"), luma \(same ? "identical to" : "differs from") ffmpeg's frame \(expected)")
            #expect(same && index == expected)
        }
    }

    /// A 10-bit HLG ramp written as 16-bit PNG and TIFF keeps its 877 levels (no banding) and its
    /// signal (no tone-mapping); as JPEG it is 8-bit and tone-mapped.
    @Test func deepPicturesKeepTheirPrecision() throws {
        let folder = try FixtureCache.shared.scratchFolder("still-deep")
        defer { try? FileManager.default.removeItem(at: folder) }
        let extractor = try StillExtractor(path: try StillProbe.hlgGradient)
        let writer = StillImageWriter(video: extractor.video)
        var stills: [StillImage] = []
        try extractor.pictures(at: [.seconds(0.5)]) { _, picture in
            for name in ["ramp.png", "ramp.tiff", "ramp.jpg"] {
                stills.append(try writer.write(picture.frame, to: folder.appendingPathComponent(name).path))
            }
        }
        for still in stills {
            let levels = StillProbe.distinctRedLevels(rgb48le: try StillProbe.pixels(of: still.path, pixelFormat: "rgb48le"), width: 1024, row: 32)
            let stored = try #require(FFprobe(still.path).stream("video")?["pix_fmt"] as? String)
            print("10-bit HLG ramp as \(still.format): \(still.bitDepth)-bit (\(stored)), \(levels) distinct levels in a row, "
                  + "tone-mapped \(still.toneMapped)")
            if still.format == .jpeg {
                #expect(still.bitDepth == 8 && still.toneMapped && levels <= 256)
            } else {
                #expect(still.bitDepth == 16 && !still.toneMapped && levels > 256)
                #expect(stored == (still.format == .png ? "rgb48be" : "rgb48le"))
            }
        }
    }

    /// A picture a program holds (a recording's frame) is written without any file open, with
    /// the colour it is told: limited-range BT.709 white and black become RGB 255 and 0.
    @Test func writesAFrameWithoutAFile() throws {
        let folder = try FixtureCache.shared.scratchFolder("still-frame")
        defer { try? FileManager.default.removeItem(at: folder) }
        var buffer = PixelBuffer(.yuv420p, width: 64, height: 32)
        buffer.fill(x: 0, y: 0, width: 32, height: 32, with: .white)
        let frame = try Frame(copying: buffer, pts: 7, timeBase: Rational(1, 240))
        let writer = StillImageWriter(color: .named(primaries: "bt709", transfer: "bt709", matrix: "bt709", range: "tv"))
        let still = try writer.write(frame, to: folder.appendingPathComponent("held.png").path)
        let pixels = [UInt8](try StillProbe.pixels(of: still.path, pixelFormat: "rgb24"))
        let (left, right) = (pixels[(16 * 64 + 8) * 3], pixels[(16 * 64 + 56) * 3])
        print("a held frame as PNG: \(still.width)x\(still.height) \(still.bitDepth)-bit, white reads \(left), black \(right)")
        #expect(still.width == 64 && still.height == 32 && still.bitDepth == 8)
        #expect(left == 255 && right == 0)
        #expect(throws: MediaError.self) { try writer.write(frame, to: still.path) }
        #expect(FileManager.default.fileExists(atPath: still.path))
    }

    /// A stream whose display matrix turns it (FFmpeg's `rotate=90`) comes out upright, as
    /// ffmpeg's autorotation shows it, and not turned the other way.
    @Test func rotatedStreamsComeOutUpright() throws {
        let folder = try FixtureCache.shared.scratchFolder("still-rotated")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try Fixture.rotated.path
        let extractor = try StillExtractor(path: clip)
        let path = folder.appendingPathComponent("upright.png").path
        var still: StillImage?
        try extractor.pictures(at: [.seconds(1)]) { _, picture in still = try StillImageWriter(video: extractor.video).write(picture.frame, to: path) }
        // The judge converts with the stream's own (untagged: BT.709) matrix, as the writer does.
        let colour = ",scale=in_color_matrix=bt709:in_range=tv"
        for (name, filters) in [("upright", ""), ("wrong", ",transpose=clock,transpose=clock")] {
            try runChecked("ffmpeg", ["-v", "error", "-nostdin", "-i", clip, "-vf", "select=eq(n\\,60)\(filters)\(colour)",
                                      "-frames:v", "1", folder.appendingPathComponent("\(name)-ref.png").path])
        }
        let upright = try StillProbe.psnr(path, folder.appendingPathComponent("upright-ref.png").path)
        let wrong = try StillProbe.psnr(path, folder.appendingPathComponent("wrong-ref.png").path)
        print("rotation \(extractor.video.rotation): still \(still?.width ?? 0)x\(still?.height ?? 0), "
              + "\(upright) dB against ffmpeg's autorotated frame, \(wrong) dB against it turned 180°")
        #expect(still?.width == 240 && still?.height == 320)
        #expect(upright == 99)
        #expect(wrong < 30)
    }

    @Test func namePatterns() throws {
        let times = ["0", "0.5", "3.25"].map { try! MediaTime(parsing: $0) }
        #expect(try StillNamePattern("s-{n}-{time}.png").names(for: times) == ["s-1-0.000.png", "s-2-0.500.png", "s-3-3.250.png"])
        #expect(StillNamePattern("s-{n}.png").name(number: 7, of: 120, time: .zero) == "s-007.png")
        #expect(try StillNamePattern("one.png").names(for: [.zero]) == ["one.png"])
        #expect(throws: MediaError.self) { try StillNamePattern("one.png").names(for: times) }
        #expect(throws: MediaError.self) { try StillNamePattern("t-{time}.png").names(for: [.zero, MediaTime(value: 1, timescale: 10_000)]) }
    }

    @Test func formatsByExtension() throws {
        #expect(try StillImageFormat(path: "a/b.PNG") == .png)
        #expect(try StillImageFormat(path: "x.tif") == .tiff && StillImageFormat(path: "x.tiff") == .tiff)
        #expect(try StillImageFormat(path: "x.jpeg") == .jpeg && StillImageFormat(path: "x.jpg") == .jpeg)
        do {
            _ = try StillImageFormat(path: "frame.bmp")
            Issue.record("a .bmp still was accepted")
        } catch {
            #expect(error.description == "frame.bmp: '.bmp' is not a still format; use .png, .tif/.tiff or .jpg/.jpeg")
        }
    }
}
