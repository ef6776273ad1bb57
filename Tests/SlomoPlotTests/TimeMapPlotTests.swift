import Foundation
import SlomoCore
@testable import SlomoPlot
import Testing

/// `TimeMapPlot` drawn to files and read back: the asked size, each section's colour over its
/// source range and nowhere else, ramps in a lighter shade, vector formats that are what they say.
@Suite struct TimeMapPlotTests {
    /// Issue 16 ("Pictures"): the section 2-4x0.25 is shaded in its colour between source
    /// seconds 2 and 4 in both panels, and its colour appears nowhere else (so does 6-8x2's in
    /// another colour). Sampled away from whole seconds, where grid lines cross the shading.
    @Test func sectionColourWhereTheSectionLies() throws {
        let plot = TimeMapPlot(try plan(["2-4x0.25", "6-8x2"]))
        let size = try PlotSize(width: 900, height: 520)
        let path = try scratchPath("plot-map", "map.png")
        try plot.write(to: PlotFile(path: path, size: size))
        let image = try PNGImage(path: path)
        #expect(image.width == 900 && image.height == 520)
        let layout = plot.layout(size)
        let first = TimeMapPlot.fill(section: 0, ramp: false), second = TimeMapPlot.fill(section: 1, ramp: false)
        #expect(first != second)
        for (colour, inside, outside) in [(first, [2.2, 3.4, 3.8], [0.5, 1.7, 4.3, 5.5, 7.4, 9.5]),
                                          (second, [6.2, 7.4, 7.8], [1.4, 3.4, 5.7, 8.3, 9.5])] {
            for seconds in inside {
                let x = layout.time.pixel(seconds)
                let rate = image.rows(x: x, layout.ratePanel.innerRows, matching: colour)
                let map = image.rows(x: x, layout.mapPanel.lowerRows, matching: colour)
                #expect(Double(rate.count) > 0.7 * layout.ratePanel.height, "\(seconds) s: \(rate.count) rows of the rate panel")
                #expect(Double(map.count) > 0.7 * layout.mapPanel.height / 2, "\(seconds) s: \(map.count) rows of the map panel")
            }
            for seconds in outside {
                let x = layout.time.pixel(seconds)
                #expect(image.rows(x: x, layout.ratePanel.innerRows, matching: colour).isEmpty, "\(seconds) s")
                #expect(image.rows(x: x, layout.mapPanel.lowerRows, matching: colour).isEmpty, "\(seconds) s")
            }
        }
    }

    /// A section's ramps are shaded lighter than its constant part, in the same hue.
    @Test func rampsAreLighter() throws {
        let plot = TimeMapPlot(try plan(["2-4x0.25:ramp=0.5"]))
        let path = try scratchPath("plot-ramps", "ramps.png")
        try plot.write(to: PlotFile(path: path))
        let image = try PNGImage(path: path)
        #expect(image.width == 1200 && image.height == 700)
        let layout = plot.layout(.standard)
        let ramp = TimeMapPlot.fill(section: 0, ramp: true), steady = TimeMapPlot.fill(section: 0, ramp: false)
        #expect(ramp.red + ramp.green + ramp.blue > steady.red + steady.green + steady.blue)
        for (seconds, colour) in [(2.25, ramp), (3.4, steady), (3.75, ramp)] {
            let rows = image.rows(x: layout.time.pixel(seconds), layout.mapPanel.lowerRows, matching: colour)
            #expect(Double(rows.count) > 0.7 * layout.mapPanel.height / 2, "\(seconds) s: \(rows.count) rows")
        }
    }

    /// The output-time curve goes through (4 s, 10 s): the end of 2-4x0.25 after 2 s at rate 1.
    @Test func curvePassesThroughTheSectionEnd() throws {
        let plot = TimeMapPlot(try plan(["2-4x0.25"]))
        let path = try scratchPath("plot-curve", "curve.png")
        try plot.write(to: PlotFile(path: path))
        let image = try PNGImage(path: path)
        let layout = plot.layout(.standard)
        let x = layout.time.pixel(4), y = layout.output.pixel(10)
        let rows = image.rows(x: x, y - 6 ... y + 6, matching: .ink, tolerance: 40)
        #expect(!rows.isEmpty, "no curve pixel near (\(x), \(y))")
        #expect(image.rows(x: x, layout.mapPanel.innerRows, matching: .ink, tolerance: 40).allSatisfy { abs(Double($0) - y) < 6 })
    }

    @Test func vectorFormats() throws {
        let plot = TimeMapPlot(try plan(["2-4x0.25"]))
        let svg = try scratchPath("plot-svg", "map.svg")
        try plot.write(to: PlotFile(path: svg, size: try PlotSize("800x450")))
        let svgText = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(svgText.hasPrefix("<?xml") && svgText.contains("<svg"))
        #expect(svgText.contains("width=\"800px\"") && svgText.contains("height=\"450px\""))
        #expect(svgText.hasSuffix("</svg>\n"))
        let pdf = try scratchPath("plot-pdf", "map.PDF")
        try plot.write(to: PlotFile(path: pdf))
        let pdfData = try Data(contentsOf: URL(fileURLWithPath: pdf))
        #expect(pdfData.starts(with: Data("%PDF-".utf8)))
        #expect(String(decoding: pdfData.suffix(8), as: UTF8.self).contains("%%EOF"))
        #expect(String(decoding: pdfData, as: UTF8.self).contains("/MediaBox [ 0 0 1200 700 ]"))
    }

    /// An existing file is kept without `overwrite` and replaced with it; nothing but the plot
    /// is left in the folder.
    @Test func existingFileIsKeptUnlessOverwriting() throws {
        let path = try scratchPath("plot-existing", "map.png")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: path))
        let plot = TimeMapPlot(try plan(["2-4x0.25"]))
        let refused = #expect(throws: PlotError.self) { try plot.write(to: PlotFile(path: path)) }
        #expect(refused?.kind == .unwritable)
        #expect(refused?.description.contains("already exists") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("keep".utf8))
        try plot.write(to: PlotFile(path: path, overwrite: true))
        #expect(try PNGImage(path: path).width == 1200)
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["map.png"])
    }

    @Test func formatAndSizeErrors() throws {
        #expect(throws: PlotError.self) { try PlotFile(path: "map.gif") }
        #expect(throws: PlotError.self) { try PlotFile(path: "map") }
        #expect(try PlotFile(path: "a/b.Svg").format == .svg)
        #expect(throws: PlotError.self) { try PlotSize("1200") }
        #expect(throws: PlotError.self) { try PlotSize("100x100") }
        #expect(try PlotSize("1600X900") == PlotSize(width: 1600, height: 900))
    }
}
