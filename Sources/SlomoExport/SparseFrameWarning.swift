import Foundation
import SlomoCore

/// Passthrough shows each source frame once, for as long as the time map stretches it: a
/// section slowed so far that fewer than `smoothMotion` source frames a second reach the
/// output stutters, however exact its timestamps. The warning names the section and the
/// export that fills the gaps instead.
enum SparseFrameWarning {
    /// Source frames per output second below which motion no longer reads as smooth.
    static let smoothMotion = Rational(10)

    /// One warning per section of `map` whose source frames (at `sourceFrameRate`) fall below
    /// `smoothMotion` per output second somewhere in it; none when the rate is unknown.
    static func warnings(for map: TimeMap, sourceFrameRate: Rational?) -> [String] {
        guard let sourceFrameRate else { return [] }
        var slowest: [Int: Rational] = [:]
        for segment in map.segments {
            guard let section = segment.section else { continue }
            let rate = segment.effectiveFrameRate(sourceFrameRate: sourceFrameRate)
            slowest[section] = min(slowest[section] ?? rate, rate)
        }
        return slowest.filter { $0.value < smoothMotion }.sorted { $0.key < $1.key }.map { index, rate in
            let fps = String(format: "%.1f", rate.doubleValue)
            return "\(map.sections[index].name) shows \(fps) source frames a second in passthrough (under "
                + "\(smoothMotion), motion stutters): for smooth motion re-encode it with --cfr 30 --frames interpolate"
        }
    }
}
