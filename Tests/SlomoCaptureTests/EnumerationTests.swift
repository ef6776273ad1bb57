import Foundation
import SlomoCapture
import SlomoCore
import Testing

/// Enumeration through the ioctl seam, against recorded `v4l2-ctl --list-formats-ext` outputs.
@Suite struct EnumerationTests {
    static func recorded(_ name: String) throws -> String {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        return try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func discreteFormatsSizesAndRates() throws {
        let device = try RecordedV4L2Device(listFormatsExt: try Self.recorded("hfr-usb-camera.txt"), card: "HFR Cam")
        let camera = try V4L2Enumeration.describe(device, path: "/dev/video0")
        #expect(camera.name == "HFR Cam")
        #expect(camera.driver == "uvcvideo")
        #expect(camera.formats.count == 5)
        let mjpeg720 = try #require(camera.formats.first)
        #expect(mjpeg720.fourCC == "MJPG")
        #expect(mjpeg720.pixelFormatDescription == "Motion-JPEG")
        #expect(mjpeg720.isCompressed)
        #expect(mjpeg720.ffmpegPixelFormat == "mjpeg")
        #expect(mjpeg720.width == 1280 && mjpeg720.height == 720)
        #expect(mjpeg720.frameRateRanges.map(\.maxFrameRate) == [Rational(240), Rational(120), Rational(60), Rational(30)])
        let ntsc = try #require(camera.formats.first { $0.fourCC == "MJPG" && $0.width == 1920 })
        #expect(ntsc.frameRateRanges.last?.maxFrameRate == Rational(30000, 1001))
        let vga = try #require(camera.formats.first { $0.fourCC == "MJPG" && $0.width == 640 })
        #expect(vga.frameRateRanges.map(\.maxFrameRate) == [Rational(330), Rational(15, 2)])
        let yuyv = camera.formats.filter { $0.fourCC == "YUYV" }
        #expect(yuyv.count == 2)
        #expect(yuyv.allSatisfy { !$0.isCompressed && $0.ffmpegPixelFormat == "yuyv422" })
        #expect(camera.formats(matching: CaptureFormat.Request(width: 1280, height: 720, frameRate: Rational(240))).count == 1)
        #expect(camera.formats(matching: CaptureFormat.Request(width: 1280, height: 720, frameRate: Rational(300))).isEmpty)
        #expect(mjpeg720.description == "MJPG 1280x720 @ 240, 120, 60, 30 fps")
    }

    @Test func stepwiseSizesAndContinuousRates() throws {
        let device = try RecordedV4L2Device(listFormatsExt: try Self.recorded("stepwise-camera.txt"))
        let camera = try V4L2Enumeration.describe(device, path: "/dev/video2")
        #expect(camera.formats.count == 2)
        let planar = camera.formats[0]
        #expect(planar.fourCC == "YU12" && planar.width == 32 && planar.maxWidth == 1920 && planar.maxHeight == 1088)
        #expect(planar.frameRateRanges == [FrameRateRange(kind: .continuous, minFrameRate: Rational(1), maxFrameRate: Rational(300))])
        #expect(planar.matches(CaptureFormat.Request(width: 1280, height: 720, frameRate: Rational(240))))
        let h264 = camera.formats[1]
        #expect(h264.isCompressed && h264.ffmpegPixelFormat == "h264")
        #expect(h264.frameRateRanges.first?.kind == .stepwise)
        #expect(h264.frameRateRanges.first?.maxFrameRate == Rational(60))
    }

    @Test func fourCCRoundTrips() {
        for code in ["MJPG", "YUYV", "H264", "GREY"] {
            #expect(V4L2Enumeration.fourCCText(V4L2Enumeration.fourCCCode(code)) == code)
        }
    }

    @Test func missingDeviceIsNamed() {
        #expect(throws: CaptureError.self) { try CaptureDevice.camera(at: "/dev/video-does-not-exist") }
        do {
            _ = try CaptureDevice.camera(at: "/dev/video-does-not-exist")
        } catch {
            #expect(error.kind == .deviceNotFound)
            #expect(error.description.contains("/dev/video-does-not-exist"))
            #expect(error.hint == .listDevices, "what to do, as data for each front end to word")
        }
    }

    @Test func noDevicesInAnEmptyFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slomo-nodev-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (devices, problems) = CaptureDevice.cameras(in: folder.path)
        #expect(devices.isEmpty && problems.isEmpty)
    }
}
