import Foundation
import SlomoTestSupport
import Testing

/// No C library is linked: each is opened the first time slomo calls it (`COnDemand`, and
/// OpenCV in `CInterpolate`). A folder on LD_LIBRARY_PATH holding broken copies of a library
/// (empty files under its soname, found before the system's) proves both halves: a command
/// that does not need the library runs as ever, one that does stops with status 127 and a line
/// naming the library and the fix, as the system's loader would have at start.
@Suite struct OnDemandLibraryTests {
    /// A folder with an empty file under each of `sonames`.
    static func brokenLibraries(_ sonames: [String], label: String) throws -> String {
        let folder = try FixtureCache.shared.scratchFolder(label)
        for soname in sonames { try Data().write(to: folder.appendingPathComponent(soname)) }
        return folder.path
    }

    @Test func ffmpegIsOpenedOnlyByCommandsThatReadMedia() throws {
        let folder = try Self.brokenLibraries(["libavformat.so.59", "libavcodec.so.59", "libavutil.so.57"], label: "broken-ffmpeg")
        let environment = ["LD_LIBRARY_PATH": folder]
        let version = try Slomo.run(["--version"], environment: environment)
        #expect(version.status == 0 && version.standardOutput.hasPrefix("slomo "), "\(version.standardError)")
        #expect(try Slomo.run(["plan", "--help"], environment: environment).status == 0)

        let inspect = try Slomo.run(["inspect", try Fixture.audioOnly.path], environment: environment)
        #expect(inspect.status == 127)
        let message = inspect.standardError.split(separator: "\n").last.map(String.init) ?? ""
        print("inspect without FFmpeg: exit \(inspect.status): \(message)")
        #expect(message.hasPrefix("slomo: cannot use ") && message.contains(" from libav")
                && message.hasSuffix("install slomo's libraries with scripts/setup"))
    }

    @Test func openCVIsOpenedOnlyForOpticalFlow() throws {
        let folder = try Self.brokenLibraries(["libopencv_video.so.406"], label: "broken-opencv")
        let environment = ["LD_LIBRARY_PATH": folder]
        let output = try FixtureCache.shared.scratchFolder("opencv-on-demand")
        let input = try Fixture.flashAndBeep60.path
        let retimed = try Slomo.run(["retime", input, "--section", "1-2x0.5", "-o", output.appendingPathComponent("r.mov").path, "-q"],
                                    environment: environment)
        #expect(retimed.status == 0, "\(retimed.standardError)")

        let flow = try Slomo.run(["export", input, "--section", "1-1.5x0.25", "--cfr", "30", "--interpolation", "quality",
                                  "-o", output.appendingPathComponent("f.mp4").path], environment: environment)
        let warnings = flow.standardError.split(separator: "\n").filter { $0.hasPrefix("warning:") }
        print("optical flow without OpenCV: exit \(flow.status): \(warnings)")
        #expect(flow.status == 0)
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("warning: interpolate: blending instead, optical-flow interpolator: cannot open OpenCV's "
                                          + "libopencv_video.so.406") == true
                && warnings.first?.hasSuffix("install slomo's libraries with scripts/setup") == true)
    }
}
