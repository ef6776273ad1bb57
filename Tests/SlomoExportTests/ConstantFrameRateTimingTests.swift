import Foundation
import SlomoCore
import SlomoExport
import SlomoMedia
import SlomoTestSupport
import Testing

/// The grid: exact 30/1 (or 30000/1001) timing, frame counts and durations from the map.
@Suite struct ConstantFrameRateTimingTests {
    /// The main case, on the 10 s 720p240 fixture (one run: it is the slowest test).
    @Test func quarterSpeedSectionAt30() throws {
        let (output, session, result) = try CFR.export(try Fixture.hfr240.path, sections: ["2-4x0.25"])
        let probe = try FFprobe(output)
        let video = try #require(probe.stream("video"))
        #expect(video["r_frame_rate"] as? String == "30/1")
        #expect(video["avg_frame_rate"] as? String == "30/1")
        let packets = try FFprobe.packets(output)
        #expect(abs(packets.count - 480) <= 1, "\(packets.count) frames")
        #expect(abs(result.videoFrames - 480) <= 1)
        let timeBase = try #require((video["time_base"] as? String).flatMap { Rational(decimal: $0) })
        let pts = packets.map(\.pts).sorted()
        let intervals = Set(zip(pts.dropFirst(), pts).map { MediaTime(ticks: $0 - $1, timeBase: timeBase) })
        #expect(intervals == [MediaTime(seconds: Rational(1, 30))], "intervals \(intervals)")
        let duration = try #require((video["duration"] as? String).flatMap(Double.init))
        #expect(abs(duration - 16) <= 1.0 / 30 + 1e-6, "duration \(duration)")
        #expect(try CFR.decodeErrors(output).isEmpty)
        #expect(result.audioTracks == 1)
        // Only the pictures some slot shows are needed: most of the 2400 are skipped or dropped.
        // The references alone are 1210 (I, P and the pyramid's middle B); where no wanted
        // picture leans on a middle B, it is left out too (`H264SkipPlan`): 732 decoded.
        let stats = session.decodeStatistics
        print("720p240 2-4x0.25 → 30 fps: \(stats.packets) packets, \(stats.decodedFrames) decoded, \(stats.usedFrames) used")
        #expect(stats.decodedFrames <= 740)
        #expect(stats.usedFrames <= 481)
    }

    @Test func ntscRateFromA240fpsSource() throws {
        let (output, _, _) = try CFR.export(try Fixture.flashAndBeep.path, sections: ["2-3x0.5"],
                                            fps: try #require(Rational(frameRate: "29.97")))
        let video = try #require(try FFprobe(output).stream("video"))
        #expect(video["r_frame_rate"] as? String == "30000/1001")
        #expect(video["avg_frame_rate"] as? String == "30000/1001")
        // 11 s of output at 30000/1001: ⌈11 · 30000/1001⌉ = 330 frames.
        #expect(try FFprobe.packets(output).count == 330)
    }

    @Test func progressAndCancellation() throws {
        let input = try Fixture.flashAndBeep.path
        let composition = try Composition(retiming: try MediaFile(path: input), sections: ["0-10x0.25"])
        let folder = try FixtureCache.shared.scratchFolder("cfr-cancel")
        let session = ExportSession(composition: composition, to: folder.appendingPathComponent("out.mp4").path,
                                    settings: ExportSettings(mode: .constantFrameRate(Rational(30)), audioAlgorithm: .varispeed),
                                    video: VideoExportSettings(preset: "ultrafast"))
        var reports: [ExportProgress] = []
        let error = #expect(throws: ExportError.self) {
            try session.run { progress in
                reports.append(progress)
                if progress.fraction > 0.1 { session.cancel() }
            }
        }
        #expect(error?.kind == .cancelled)
        #expect(reports.first?.phase.contains("rendering 30 fps") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
