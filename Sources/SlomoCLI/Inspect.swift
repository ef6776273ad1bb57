import ArgumentParser
import SlomoInterchange
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
              slomo inspect IMG_0001.MOV          (with IMG_0001.AAE beside it: its slow-motion regions)
              slomo inspect clip.mov --json | jq '.streams[0].video.nominalFrameRate'

            The JSON schema is documented in docs/inspect-json.md.

            \(ExitStatus.help)
            """)

    @Argument(help: "The media file to inspect.", completion: .file())
    var file: String

    @Flag(help: "Print JSON (a stable, documented schema) instead of a table.")
    var json = false

    @Flag(help: "Read every packet to measure frame intervals and detect variable frame rate.")
    var frames = false

    func run() throws {
        let report = try MediaFile.inspect(path: file, measureFrames: frames)
        print(json ? try InspectionJSON(report).text() : InspectionTable(report).text + phoneText(report))
    }

    /// The phone slow-motion block: a sidecar's regions and rate, the capture-rate and
    /// playback-intent tags; a sidecar that does not parse is reported, not fatal.
    private func phoneText(_ file: MediaFile) -> String {
        var rows: [(String, String)] = []
        do {
            if let slowMotion = try PhoneSlowMotion.detect(in: file) { rows.append(("phone", slowMotion.summary)) }
        } catch {
            rows.append(("phone", "slow-motion sidecar unreadable: \(error)"))
        }
        if let intent = file.metadata[Self.playbackIntentKey] {
            rows.append(("playback intent", intent == "0" ? "slow motion (\(Self.playbackIntentKey) = 0)" : "real time (\(intent))"))
        }
        return rows.isEmpty ? "" : "\n\n" + InspectionTable.aligned(rows)
    }

    /// Apple's tag saying whether a high-frame-rate movie plays at its full rate (1) or slowed (0).
    static let playbackIntentKey = "com.apple.quicktime.full-frame-rate-playback-intent"
}

/// `inspect --json`: the file's own JSON with a `phone` object added when a phone's slow
/// motion is found (`{"error": …}` for a sidecar that does not parse).
private struct InspectionJSON: Encodable {
    let file: MediaFile
    let phone: PhoneSlowMotion.JSON?
    let phoneError: String?

    init(_ file: MediaFile) {
        self.file = file
        do {
            phone = try PhoneSlowMotion.detect(in: file)?.json
            phoneError = nil
        } catch {
            phone = nil
            phoneError = "\(error)"
        }
    }

    private enum Keys: String, CodingKey { case phone }

    func encode(to encoder: any Swift.Encoder) throws {
        try file.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        if let phone { try container.encode(phone, forKey: .phone) }
        if let phoneError { try container.encode(["error": phoneError], forKey: .phone) }
    }

    func text() throws -> String {
        String(decoding: try MediaFile.jsonEncoder.encode(self), as: UTF8.self)
    }
}
