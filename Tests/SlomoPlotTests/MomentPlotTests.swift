import Foundation
import SlomoCore
import SlomoDetect
@testable import SlomoPlot
import SlomoTestSupport
import Testing

/// `detect --plot`'s picture, read back: the landing's moment is a red dot where the motion
/// curve falls at 1.2 s, its click a green tick rising from the floor there, the cut a grey
/// line at 0.5 s; a quiet stretch carries none of them.
@Suite struct MomentPlotTests {
    @Test func landingCutAndClickAreWhereTheyHappen() throws {
        let folder = try FixtureCache.shared.scratchFolder("plot-moments")
        let clip = try SyntheticClip(background: .cut(at: 0.5)).write(named: "landing", in: folder)
        let analysis = try MomentDetector().analyse(path: clip.path)
        let moment = try #require(analysis.moments.first)
        let plot = MomentPlot(analysis)
        let path = folder.appendingPathComponent("moments.png").path
        try plot.write(to: PlotFile(path: path))
        let image = try PNGImage(path: path)
        let layout = plot.layout(.standard)

        let dot = layout.activity.pixel(analysis.smoothedActivity(at: moment.time))
        let x = layout.time.pixel(moment.time.doubleSeconds)
        #expect(!image.rows(x: x, dot - 3 ... dot + 3, matching: .alert, tolerance: 30).isEmpty, "no red moment at 1.2 s")
        #expect(!image.rows(x: x, layout.panel.lowerRows, matching: MomentPlot.onset, tolerance: 30).isEmpty, "no onset tick")
        let cut = layout.time.pixel(try #require(analysis.cuts.first).doubleSeconds)
        // A dashed, anti-aliased line: some of its rows in one of the columns it covers.
        let cutRows = (-1...1).map { image.rows(x: cut + Double($0), layout.panel.innerRows, matching: MomentPlot.cut, tolerance: 40).count }
        #expect(cutRows.max()! > Int(layout.panel.height) / 4, "no cut line at 0.5 s: \(cutRows)")
        let quiet = layout.time.pixel(1.7)
        for colour in [PlotColour.alert, MomentPlot.onset, MomentPlot.cut] {
            #expect(image.rows(x: quiet, layout.panel.innerRows, matching: colour, tolerance: 20).isEmpty)
        }
    }
}
