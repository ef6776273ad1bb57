import ArgumentParser
import SlomoMedia

/// `slomo inspect FILE`: what is in a media file.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what is in a media file: container, streams, frame rates, colour and HDR.",
        discussion: """
            Frame rates are exact fractions (30000/1001, not 29.97). With --frames, every packet \
            is read to measure the real frame intervals and tell variable-frame-rate video apart.

            Examples:
              slomo inspect clip.mov
              slomo inspect clip.mov --frames
              slomo inspect clip.mov --json | jq '.streams[0].video.nominalFrameRate'

            The JSON schema is documented in docs/inspect-json.md.
            """)

    @Argument(help: "The media file to inspect.", completion: .file())
    var file: String

    @Flag(help: "Print JSON (a stable, documented schema) instead of a table.")
    var json = false

    @Flag(help: "Read every packet to measure frame intervals and detect variable frame rate.")
    var frames = false

    func run() throws {
        let report = try MediaFile.inspect(path: file, measureFrames: frames)
        print(json ? try report.jsonText() : InspectionTable(report).text)
    }
}
