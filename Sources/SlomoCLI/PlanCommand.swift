import ArgumentParser
import Foundation
import SlomoCore
import SlomoInterchange
import SlomoMedia
import SlomoPlot

/// `slomo plan INPUT (--section SPEC)… [--cfr FPS] [--json] [--plot FILE]`: the time map of a
/// retime or an edit script, printed and, with `--plot`, drawn; no media is written.
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Show the time map of a retime or an edit script: segments, effective fps, frames, duration.",
        discussion: """
            INPUT is a movie, retimed by its --section options (grammar in docs/sections.md), an \
            edit script (.yaml, .yml or .json; schema in docs/edit-script.md) or an OpenTimelineIO \
            timeline (.otio; docs/interchange.md) with its own clips and sections. Only the durations and frame rates of the sources are read.

            Each segment of the map is listed with its source and output range, rate (a ramp \
            shows from→to), effective frame rate (source fps × rate), source frames and, with \
            --cfr (or an edit script whose output mode is cfr), output frames.

            Examples:
              slomo plan match.mov --section 2-4x0.25
              slomo plan match.mov --section 2-4x0.25:ramp=0.3 --section 8-endx2 --cfr 30
              slomo plan edit.yaml --json
              slomo plan match.mov --section 2-4x0.25:ramp=0.3 --plot map.png
              slomo plan edit.yaml --plot map.svg --plot-size 1600x900 --overwrite

            --plot FILE also draws the time map (.png, .svg or .pdf, by the extension): output \
            time against source time above, the rate below, each section shaded in its own \
            colour (its ramps lighter), the effective frame rate written on the rate curve. \
            The table or JSON still goes to stdout; "plot: FILE" goes to stderr.

            The JSON schema is documented in docs/plan.md.

            \(ExitStatus.help)
            """)

    @OptionGroup var source: EditInputOptions

    @Option(help: ArgumentHelp("Plan a constant-frame-rate export at this rate (30, 29.97, 30000/1001, source).",
                               valueName: "fps"))
    var cfr: String?

    @Flag(help: "Print JSON (a stable, documented schema) instead of a table.")
    var json = false

    @OptionGroup var plot: PlotOptions

    func validate() throws {
        if let cfr { try OutputFrameRate.validate(cfr, option: "--cfr") }
    }

    func run() throws {
        let plotFile = try plot.checkedFile()
        let edit = try source.edit()
        let scriptRate = edit.output.mode == .cfr ? edit.output.fps : nil
        let typedRate = try cfr.map { try OutputFrameRate.typed($0, option: "--cfr", for: edit.composition) }
        var plan = try Plan(edit.composition.timeMap(), cfrFrameRate: typedRate ?? scriptRate,
                            defaultAudio: edit.output.audio ?? .spectral, frameTimes: try edit.composition.frameTimes())
        if !edit.composition.hasAudio { plan = plan.withoutAudio() }
        print(json ? try plan.jsonText() : Self.table(plan))
        if let plotFile { try plot.draw(into: plotFile) { try TimeMapPlot(plan).write(to: $0) } }
    }

    /// The plan as a table: one line per segment, then the total.
    static func table(_ plan: Plan) -> String {
        let showClip = plan.clips.count > 1
        var header = ["#", "source (s)", "output (s)", "rate", "eff. fps", "src frames", "out frames", "audio"]
        if showClip { header.insert("clip", at: 1) }
        var rows = [header]
        let hasAudio = plan.segments.contains { $0.audio != nil }
        for (index, segment) in plan.segments.enumerated() {
            let effective: String = segment.effectiveFrameRate.map { String(format: "%.3f", $0) } ?? "-"
            let sourceFrames: String = segment.sourceFrames.map { String($0) } ?? "-"
            let outputFrames: String = segment.outputFrames.map { String($0) } ?? "-"
            let source: String = seconds(segment.sourceStart) + "-" + seconds(segment.sourceEnd)
            let output: String = seconds(segment.outputStart) + "-" + seconds(segment.outputEnd)
            var row: [String] = [String(index + 1), source, output, segment.rateText, effective,
                                 sourceFrames, outputFrames, (hasAudio ? segment.hold : nil) ?? Self.audioColumn(segment)]
            if showClip { row.insert("\(segment.clip + 1)", at: 1) }
            rows.append(row)
        }
        var lines: [String] = []
        for (index, clip) in plan.clips.enumerated() {
            let name = showClip ? "clip \(index + 1): \(clip.source)" : clip.source
            var rate = clip.frameRate.map { " at \($0) fps" } ?? ", frame rate unknown"
            if clip.variableFrameRate == true {
                rate = ", variable frame rate" + (clip.frameRate.map { " (\($0) fps nominal; frames counted)" } ?? "")
            }
            lines.append("\(name), \(seconds(clip.sourceStart))-\(seconds(clip.sourceEnd)) s\(rate)")
        }
        // The first column is right-aligned (` 9` above `10`), and the frame counts and rates.
        lines += TextColumns.lines(rows, rightAligned: Set([0] + Array(header.count - 4 ..< header.count - 1)))
        var total = "total output duration: \(seconds(plan.outputDuration)) s"
        if let frames = plan.outputFrames, let rate = plan.cfrFrameRate { total += ", \(frames) frames at \(rate) fps" }
        return (lines + [total]).joined(separator: "\n")
    }

    private static func seconds(_ time: MediaTime) -> String { time.formattedSeconds() }

    /// The audio column: the algorithm, with the section's pitch shift (`spectral +3 st`).
    private static func audioColumn(_ segment: Plan.Segment) -> String {
        guard let audio = segment.audio else { return "-" }
        guard let pitch = segment.pitch else { return audio.rawValue }
        return "\(audio.rawValue) \(pitch > 0 ? "+" : "")\(SectionSpec.semitones(pitch)) st"
    }
}
