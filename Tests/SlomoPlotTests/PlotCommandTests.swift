import Foundation
@testable import SlomoPlot
import SlomoTestSupport
import Testing

/// `slomo plan --plot` and `slomo inspect --plot` end to end, on the built binary.
@Suite struct PlotCommandTests {
    /// Issue 16 ("Pictures"): `plan --plot` writes a PNG of the asked size with the section's
    /// colour over its source range.
    @Test func planDrawsTheTimeMap() throws {
        let path = try scratchPath("cli-plot-plan", "map.png")
        let result = try Slomo.run(["plan", try Fixture.hfr240.path, "--section", "2-4x0.25", "--plot", path,
                                    "--plot-size", "1000x600"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("total output duration: 16.000 s"), "the table is still printed")
        #expect(result.standardError.contains("plot: \(path) (1000x600 PNG)"))
        let image = try PNGImage(path: path)
        #expect(image.width == 1000 && image.height == 600)
        let size = try PlotSize(width: 1000, height: 600)
        let layout = TimeMapPlot(try plan(["2-4x0.25"])).layout(size)
        let colour = TimeMapPlot.fill(section: 0, ramp: false)
        let inside = image.rows(x: layout.time.pixel(3.4), layout.ratePanel.innerRows, matching: colour)
        #expect(Double(inside.count) > 0.7 * layout.ratePanel.height)
        for seconds in [1.7, 4.3, 8.6] {
            #expect(image.rows(x: layout.time.pixel(seconds), layout.ratePanel.innerRows, matching: colour).isEmpty)
        }
    }

    @Test func planDrawsSVGAndPDFWithJSON() throws {
        let folder = try FixtureCache.shared.scratchFolder("cli-plot-vector")
        for (name, magic) in [("map.svg", "<?xml"), ("map.pdf", "%PDF-")] {
            let path = folder.appendingPathComponent(name).path
            let result = try Slomo.run(["plan", try Fixture.hfr240.path, "--section", "2-4x0.25", "--json", "--plot", path])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) is [String: Any],
                    "stdout stays JSON")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)).starts(with: Data(magic.utf8)))
        }
    }

    /// An existing plot is kept (exit 1, the option named) unless --overwrite is given; bad
    /// names and sizes are usage errors that name their option.
    @Test func planRefusesWhatItShould() throws {
        let path = try scratchPath("cli-plot-refuse", "map.png")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: path))
        let arguments = ["plan", try Fixture.hfr240.path, "--section", "2-4x0.25", "--plot", path]
        let refused = try Slomo.run(arguments)
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("--plot \(path): already exists (use --overwrite to replace it)"),
                "\(refused.standardError)")
        #expect(refused.standardOutput.isEmpty, "refused before any work")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("keep".utf8))
        let replaced = try Slomo.run(arguments + ["--overwrite"])
        #expect(replaced.status == 0, "\(replaced.standardError)")
        #expect(try PNGImage(path: path).width == 1200)

        let gif = try Slomo.run(["plan", try Fixture.hfr240.path, "--plot", path + ".gif"])
        #expect(gif.status == 64)
        #expect(gif.standardError.contains("--plot \(path).gif: unknown plot format '.gif'; use .png, .svg or .pdf"))
        let tiny = try Slomo.run(["plan", try Fixture.hfr240.path, "--plot", path, "--plot-size", "20x10"])
        #expect(tiny.status == 64)
        #expect(tiny.standardError.contains("--plot-size 20x10:"), "\(tiny.standardError)")
        let missingFolder = try Slomo.run(["plan", try Fixture.hfr240.path, "--plot", "/nonexistent-slomo/map.png"])
        #expect(missingFolder.status == 1)
        #expect(missingFolder.standardError.contains("--plot /nonexistent-slomo/map.png: the folder"))
        let alone = try Slomo.run(["plan", try Fixture.hfr240.path, "--plot-size", "800x600"])
        #expect(alone.status == 64)
    }

    /// Issue 16 ("Pictures"): `inspect --plot` (which implies --frames) draws the VFR fixture's
    /// intervals at two levels.
    @Test func inspectDrawsFrameIntervals() throws {
        let path = try scratchPath("cli-plot-inspect", "intervals.png")
        let result = try Slomo.run(["inspect", try Fixture.vfr.path, "--plot", path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("variable frame rate"), "--plot implies --frames")
        let image = try PNGImage(path: path)
        #expect(image.width == 1200 && image.height == 700)
        let layout = FrameIntervalPlot(try FrameIntervals(path: try Fixture.vfr.path)).layout(.standard)
        let high = image.rows(x: layout.time.pixel(0.5), layout.panel.innerRows, matching: FrameIntervalPlot.curve, tolerance: 30)
        let low = image.rows(x: layout.time.pixel(1.5), layout.panel.innerRows, matching: FrameIntervalPlot.curve, tolerance: 30)
        #expect(!high.isEmpty && high.allSatisfy { abs(Double($0) - layout.interval.pixel(100.0 / 3)) <= 2 }, "\(high)")
        #expect(!low.isEmpty && low.allSatisfy { abs(Double($0) - layout.interval.pixel(50.0 / 3)) <= 2 }, "\(low)")

        let several = try Slomo.run(["inspect", try Fixture.vfr.path, try Fixture.ntsc.path, "--plot", path + ".png"])
        #expect(several.status == 64)
        let audio = try Slomo.run(["inspect", try Fixture.audioOnly.path, "--plot", path + ".png"])
        #expect(audio.status == 1)
        #expect(audio.standardError.contains("has no video stream"), "\(audio.standardError)")
    }
}
