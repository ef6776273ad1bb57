import SlomoCore
import SlomoDetect

/// The human form of `slomo detect`: a line about the clip, then one row per moment with the
/// section to slow it, ready to paste.
struct DetectTable {
    let analysis: MomentAnalysis
    let count: Int

    init(_ analysis: MomentAnalysis, count: Int) {
        self.analysis = analysis
        self.count = count
    }

    var text: String {
        let lines = [header]
        guard !analysis.moments.isEmpty else { return (lines + ["no moment found: nothing moves or sounds sharply"]).joined(separator: "\n") }
        let rows = [["#", "time", "frame", "score", "found by", "section"]] + analysis.moments.prefix(count).enumerated().map { rank, moment in
            ["\(rank + 1)", "\(moment.time.formattedSeconds()) s", moment.frame.map(String.init) ?? "-",
             String(format: "%.2f", moment.score), moment.foundBy.map(\.rawValue).joined(separator: ", "),
             "\(moment.section.start.exactDescription)-\(moment.section.end.exactDescription)x0.25"]
        }
        return (lines + TextColumns.lines(rows)).joined(separator: "\n")
    }

    private var header: String {
        var parts = [analysis.duration.map { "\($0.formattedSeconds()) s" } ?? "duration unknown", "\(analysis.frames) frames"]
        parts.append(analysis.onsets.count == 1 ? "1 sound onset" : "\(analysis.onsets.count) sound onsets")
        if !analysis.cuts.isEmpty {
            parts.append((analysis.cuts.count == 1 ? "1 cut at " : "\(analysis.cuts.count) cuts at ")
                         + analysis.cuts.prefix(5).map { "\($0.formattedSeconds()) s" }.joined(separator: ", "))
        }
        return "\(analysis.path): " + parts.joined(separator: "; ")
    }
}
