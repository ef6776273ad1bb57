import Foundation
import SlomoConcurrency
import SlomoMedia
@testable import SlomoPlot
import SlomoTestSupport
import Testing

/// `FrameIntervals` read from generated movies and `FrameIntervalPlot` read back: variable
/// frame rate is two levels, dropped frames are gaps marked where they happened.
@Suite struct FrameIntervalPlotTests {
    /// 4 s at 30 fps with frames 40–44 and 80–81 left out: gaps of 200 ms and 100 ms.
    static var dropsFixture: String {
        get throws {
            try FixtureCache.shared.path(for: "drops30", extension: "mp4", arguments: [
                "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=4",
                "-vf", "select='not(between(n,40,44))*not(between(n,80,81))'", "-fps_mode", "vfr",
                "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"])
        }
    }

    @Test func variableFrameRateFixtureHasTwoLevels() throws {
        let intervals = try FrameIntervals(path: try Fixture.vfr.path)
        #expect(intervals.times.count == 90)
        let milliseconds = intervals.intervals.map { ($0 * 1000 * 100).rounded() / 100 }
        #expect(Set(milliseconds) == [33.33, 16.67])
        #expect(milliseconds.prefix(30).allSatisfy { $0 == 33.33 } && milliseconds.suffix(59).allSatisfy { $0 == 16.67 })
        #expect(intervals.gaps.isEmpty)
        #expect(intervals.isVariableFrameRate)
        #expect(intervals.nominalInterval.map { abs($0 - 1.0 / 60) < 1e-9 } == true)
    }

    /// Issue 16 ("Pictures"): the curve lies at 33.3 ms in the first second and at 16.7 ms in
    /// the second.
    @Test func variableFrameRatePlotShowsBothLevels() throws {
        let plot = FrameIntervalPlot(try FrameIntervals(path: try Fixture.vfr.path))
        let size = try PlotSize(width: 1000, height: 600)
        let path = try scratchPath("plot-vfr", "intervals.png")
        try plot.write(to: PlotFile(path: path, size: size))
        let image = try PNGImage(path: path)
        #expect(image.width == 1000 && image.height == 600)
        let layout = plot.layout(size)
        for (seconds, level) in [(0.25, 100.0 / 3), (0.75, 100.0 / 3), (1.25, 50.0 / 3), (1.75, 50.0 / 3)] {
            let rows = image.rows(x: layout.time.pixel(seconds), layout.panel.innerRows, matching: FrameIntervalPlot.curve,
                                  tolerance: 30)
            let expected = layout.interval.pixel(level)
            #expect(!rows.isEmpty && rows.allSatisfy { abs(Double($0) - expected) <= 2 },
                    "at \(seconds) s the curve is on rows \(rows), expected about \(expected)")
        }
        #expect(layout.interval.pixel(50.0 / 3) - layout.interval.pixel(100.0 / 3) > 50)
    }

    /// Dropped frames are gaps, found where they are and marked red on the plot.
    @Test func droppedFramesAreMarkedGaps() throws {
        let intervals = try FrameIntervals(path: try Self.dropsFixture)
        #expect(intervals.times.count == 113)
        #expect(intervals.gaps.count == 2)
        let gaps = intervals.gaps.map { (start: intervals.times[$0], length: intervals.intervals[$0]) }
        #expect(abs(gaps[0].start - 39.0 / 30) < 1e-3 && abs(gaps[0].length - 0.2) < 1e-3)
        #expect(abs(gaps[1].start - 79.0 / 30) < 1e-3 && abs(gaps[1].length - 0.1) < 1e-3)

        let plot = FrameIntervalPlot(intervals)
        let path = try scratchPath("plot-drops", "drops.png")
        try plot.write(to: PlotFile(path: path))
        let image = try PNGImage(path: path)
        let layout = plot.layout(.standard)
        for gap in gaps {
            let x = layout.time.pixel(gap.start + gap.length / 2), y = layout.interval.pixel(gap.length * 1000)
            #expect(!image.rows(x: x, y - 3 ... y + 3, matching: .alert, tolerance: 30).isEmpty, "no red mark at \(gap)")
        }
        let quiet = layout.time.pixel(2.0)
        #expect(image.rows(x: quiet, layout.panel.innerRows, matching: .alert, tolerance: 30).isEmpty)
    }

    /// `inspect --plot` reads the packets once: the frame times `MediaFile.inspect` measured
    /// are the ones the plot draws, and plotting reads no packet again.
    @Test func plottingAnInspectedFileReadsNoPacketAgain() throws {
        let path = try scratchPath("plot-inspected", "drops.mp4")
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: try Self.dropsFixture, toPath: path)
        var inspected: MediaFile?
        var intervals: FrameIntervals?
        let inspecting = try LiveObjects.tracking { inspected = try MediaFile.inspect(path: path, measureFrames: true) }
        let plotting = try LiveObjects.tracking { intervals = try FrameIntervals(path: path) }
        #expect(inspecting.allocatedPackets >= 113)
        #expect(plotting.allocatedPackets == 0)
        #expect(inspected?.videoStream?.frameTiming?.frameCount == 113)
        #expect(intervals?.times.count == 113 && intervals?.gaps.count == 2)
    }

    @Test func audioOnlyHasNothingToPlot() throws {
        let error = #expect(throws: PlotError.self) { try FrameIntervals(path: try Fixture.audioOnly.path) }
        #expect(error?.kind == .nothingToPlot)
    }
}
