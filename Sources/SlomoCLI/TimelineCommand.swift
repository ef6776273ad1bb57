import ArgumentParser
import Foundation
import SlomoCore
import SlomoInterchange

/// `slomo timeline INPUT [--section SPEC]… -o edit.otio|edit.fcpxml|edit.mlt`: the composition
/// as an editor timeline that references the original media.
struct TimelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Write a retime or an edit script as an editor timeline: OpenTimelineIO, Final Cut Pro XML or MLT.",
        discussion: """
            The timeline references the original media and retimes it the way each editor does: \
            one clip per constant-rate segment with a speed (OTIO LinearTimeWarp, FCPXML timeMap, \
            MLT timewarp producer). Editors' speeds are constant, so a ramp becomes short steps \
            (at most \(Timeline.maximumRampSteps)) on source frames; FCPXML marks them smooth and \
            OTIO keeps the exact ramp in the clip's metadata, from which slomo reads it back. \
            The format follows the extension of -o. What maps to what: docs/interchange.md.

            INPUT is a movie retimed by its --section options, an edit script (.yaml, .yml, \
            .json) or an OTIO timeline (.otio, to convert it).

            Examples:
              slomo timeline match.mov --section 2-4x0.25 -o match.otio
              slomo timeline match.mov --section 2-4x0.25:ramp=0.3 -o match.fcpxml
              slomo timeline edit.yaml -o edit.mlt && melt edit.mlt
              slomo timeline from-resolve.otio -o for-shotcut.mlt
              slomo timeline take.mov --section 2-4x0.25 --timeline-rate 24 -o cut.otio

            Clips and ramp steps lie on whole frames of the project's rate (--timeline-rate, \
            default the first source's); the largest rounding to that grid is printed.

            \(ExitStatus.help)
            """)

    @OptionGroup var source: EditInputOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("The timeline to write: .otio, .fcpxml or .mlt.", valueName: "file"),
            completion: .file(extensions: TimelineFormat.allCases.map(\.rawValue)))
    var output: String

    @Option(name: .customLong("timeline-rate"),
            help: ArgumentHelp("The project's frame rate: 24, 25, 29.97 (= 30000/1001), … or source (default: the first source's).",
                               valueName: "fps"))
    var timelineRate: String?

    @Flag(help: "Replace the output file if it exists.")
    var overwrite = false

    func validate() throws {
        guard TimelineFormat(path: output) != nil else {
            throw ValidationError("-o must end in .otio, .fcpxml or .mlt (the format follows the extension), got '\(output)'.")
        }
        if let timelineRate { try OutputFrameRate.validate(timelineRate, option: "--timeline-rate") }
    }

    func run() throws {
        let edit = try source.edit()
        let rate = try timelineRate.map { try OutputFrameRate.typed($0, option: "--timeline-rate", for: edit.composition) }
        let timeline = try Timeline(edit.composition, frameRate: rate)
        try timeline.write(to: output, overwrite: overwrite)
        let steps = timeline.events.filter { $0.ramp != nil }.count
        let rounding = timeline.largestPlacementError.doubleSeconds * 1000
        print("\(output): \(timeline.events.count) clip(s)\(steps > 0 ? " (\(steps) ramp steps)" : ""), "
              + "\(timeline.duration.formattedSeconds()) s at \(timeline.frameRate) fps; "
              + "clips on whole frames, moved at most \(String(format: "%.3f", rounding)) ms")
    }
}
