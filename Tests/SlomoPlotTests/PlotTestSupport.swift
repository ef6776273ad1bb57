import Foundation
import SlomoCore
@testable import SlomoPlot
import SlomoTestSupport

/// The plan of `slomo plan clip.mov --section SPEC…` for a clip of `duration` seconds at `fps`,
/// made in process.
func plan(_ specs: [String], duration: Int64 = 10, fps: Int64 = 240) throws -> Plan {
    let clip = TimeRange(start: .zero, duration: MediaTime(value: duration, timescale: 1))
    let sections = try specs.map { try SectionSpec(parsing: $0).resolved(in: clip, frameRate: Rational(fps)) }
    let map = try TimeMap(sections: sections, source: clip, frameRate: Rational(fps))
    return try Plan(map, source: "clip.mov", sourceFrameRate: Rational(fps))
}

/// A path in a fresh scratch folder.
func scratchPath(_ label: String, _ name: String) throws -> String {
    try FixtureCache.shared.scratchFolder(label).appendingPathComponent(name).path
}

extension Rect {
    /// The rows strictly inside the rectangle (its frame left out).
    var innerRows: ClosedRange<Double> { y + 2 ... maxY - 2 }
    /// The lower half of the inner rows.
    var lowerRows: ClosedRange<Double> { midY ... maxY - 2 }
}
