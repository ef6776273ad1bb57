import Foundation
import SlomoCore

extension AutoSection {
    /// The sections around the strongest `count` moments of `analysis` whose sections do not
    /// overlap, in time order, each with a line saying where it came from. Throws when the clip
    /// has no moment.
    public func sections(in analysis: MomentAnalysis) throws -> [(section: String, note: String)] {
        var chosen: [(range: TimeRange, moment: Moment)] = []
        for moment in analysis.moments where chosen.count < count {
            let start = max(.zero, moment.time - before)
            let end = analysis.duration.map { min($0, moment.time + after) } ?? moment.time + after
            guard end > start else { continue }
            let range = TimeRange(start: start, end: end)
            if chosen.contains(where: { $0.range.start < range.end && range.start < $0.range.end }) { continue }
            chosen.append((range, moment))
        }
        guard !chosen.isEmpty else {
            throw TimeModelError(.invalidValue, "no moment found in \(analysis.path) (nothing moves or sounds sharply); "
                                 + "give its sections by hand", subject: "section 'auto'")
        }
        return chosen.sorted { $0.range.start < $1.range.start }.map { range, moment in
            let section = "\(range.start.exactDescription)-\(range.end.exactDescription)x\(rate)"
            let frame = moment.frame.map { "frame \($0), " } ?? ""
            let evidence = moment.foundBy.map(\.rawValue).joined(separator: " and ")
            return (section, "section auto: the moment at \(moment.time.formattedSeconds()) s (\(frame)\(evidence), "
                    + "score \(String(format: "%.2f", moment.score))) \(rate.hasPrefix("-") ? "played backwards" : "slowed") as \(section)")
        }
    }
}
