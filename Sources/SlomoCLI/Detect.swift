import ArgumentParser
import Foundation
import SlomoCore
import SlomoDetect
import SlomoMedia
import SlomoPlot

/// `slomo detect INPUT`: the moments worth slowing, strongest first.
struct Detect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Find the moments worth slowing in a clip: peaks of motion and sharp sounds, strongest first.",
        discussion: """
            The picture is analysed a few hundred pixels wide: what moves locally, once the \
            camera's own pan or shake is taken out, and scene cuts (set apart, never action). The \
            sound is searched for sharp onsets (a click, a crack, an impact: a rise of 15 dB or \
            more within 20 ms), each tied to the source frame it happens in. A moment found by \
            both scores up to 2, by one up to 1. Each comes with a section around it to slow.

            Examples:
              slomo detect take.mov
              slomo detect take.mov --count 3 --before 0.5 --after 0.25
              slomo detect take.mov --json | jq '.moments[0].time'
              slomo detect take.mov --json --curves > analysis.json
              slomo detect take.mov --plot moments.png

            --plot FILE draws each frame's local motion against time, the sound onsets (green, \
            taller for a larger rise), the cuts (dashed) and the moments numbered by rank \
            (.png, .svg or .pdf, by the extension); "plot: FILE" goes to stderr.

            A clip where nothing moves or sounds has no moment: "no moment found", status 0. \
            The JSON schema is documented in docs/detect.md.

            \(ExitStatus.help)
            """)

    @Argument(help: "The clip to analyse.", completion: .file())
    var input: String

    @Flag(help: "Print JSON (docs/detect.md) instead of a table.")
    var json = false

    @Flag(help: "With --json, also give every frame's motion measurements.")
    var curves = false

    @Option(help: ArgumentHelp("How many moments to list.", valueName: "n"))
    var count = 5

    @Option(help: ArgumentHelp("Seconds of a moment's section before it.", valueName: "seconds"))
    var before = "1"

    @Option(help: ArgumentHelp("Seconds of a moment's section after it.", valueName: "seconds"))
    var after = "1"

    @OptionGroup var plot: PlotOptions

    func validate() throws {
        guard count > 0 else { throw ValidationError("--count \(count): list at least one moment.") }
        if curves && !json { throw ValidationError("--curves adds to the JSON; give --json too.") }
    }

    func run() throws {
        let plotFile = try plot.checkedFile()
        let detector = MomentDetector(before: try Self.seconds(before, option: "--before"),
                                      after: try Self.seconds(after, option: "--after"))
        let analysis = try detector.analyse(path: input)
        if json {
            let data = try MediaFile.jsonEncoder.encode(DetectJSON(analysis, count: count, curves: curves))
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(DetectTable(analysis, count: count).text)
        }
        if let plotFile { try plot.draw(into: plotFile) { try MomentPlot(analysis).write(to: $0) } }
    }

    private static func seconds(_ text: String, option: String) throws -> MediaTime {
        guard let time = try? MediaTime(parsing: text), time >= .zero else {
            throw ValidationError("\(option) \(text): give seconds, such as 0.5 or 1.")
        }
        return time
    }
}

/// `detect --json`: the moments and what found them (docs/detect.md).
private struct DetectJSON: Encodable {
    let schemaVersion = 1
    let slomoVersion = SlomoVersion.current
    let path: String
    let duration: MediaTime?
    let frames: Int
    let moments: [Moment]
    let cuts: [MediaTime]
    let onsets: [SoundOnset]
    let motion: [FrameMotion]?

    init(_ analysis: MomentAnalysis, count: Int, curves: Bool) {
        path = analysis.path
        duration = analysis.duration
        frames = analysis.frames
        moments = Array(analysis.moments.prefix(count))
        cuts = analysis.cuts
        onsets = analysis.onsets
        motion = curves ? analysis.motion : nil
    }
}
