import Foundation
import SlomoTestSupport
import Testing

/// `--interpolation` and the optical-flow frame choice from the command line.
@Suite struct InterpolationCommandTests {
    static func run(_ arguments: [String], input: String? = nil) throws -> (CommandResult, URL) {
        let folder = try FixtureCache.shared.scratchFolder("interp-cli")
        let source = try input ?? Fixture.flashAndBeep.path
        let result = try Slomo.run(["export", source] + arguments.map { $0.replacingOccurrences(of: "$OUT", with: folder.path) })
        return (result, folder)
    }

    @Test func unknownPresetListsTheChoicesAndWritesNothing() throws {
        let (result, folder) = try Self.run(["--section", "2-4x0.1", "--cfr", "30", "--interpolation", "smooth", "-o", "$OUT/out.mp4"])
        print("--interpolation smooth: status \(result.status), \(result.standardError)")
        #expect(result.status == 64)
        #expect(result.standardError.contains("smooth") && result.standardError.contains("fast, quality, draft"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func dryRunNamesThePreset() throws {
        let (result, _) = try Self.run(["--section", "5-6x0.1", "--cfr", "30", "--interpolation", "quality", "--dry-run"])
        print(result.standardOutput)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("interpolate  (effective 24.000 fps, 300 frames)  optical flow (quality)"),
                "\(result.standardOutput)")
    }

    @Test func interpolationOptionsNeedCFRInRetime() throws {
        let result = try Slomo.run(["retime", try Fixture.flashAndBeep.path, "--section", "2-4x0.1", "--interpolation", "draft"])
        print("retime --interpolation without --cfr: \(result.standardError)")
        #expect(result.status == 64)
        #expect(result.standardError.contains("need --cfr"), "\(result.standardError)")
    }

    /// A format optical flow does not take (4:4:4) is blended, and the command says so.
    @Test func unsupportedFormatPrintsAWarning() throws {
        let input = try FixtureCache.shared.path(for: "bar444", extension: "mov", arguments: [
            "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
            "-filter_complex", "testsrc2=size=160x120:rate=30:duration=1,format=yuv444p", "-c:v", "ffv1"])
        let (result, folder) = try Self.run(["--section", "0-0.5x0.25", "--cfr", "30", "--codec", "ffv1", "-o", "$OUT/out.mkv"],
                                            input: input)
        print("4:4:4 export: status \(result.status), stderr: \(result.standardError)")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("warning:") && result.standardError.contains("blending instead"), "\(result.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.mkv").path))
    }
}
