import ArgumentParser
import Foundation
import SlomoCore
import SlomoInterchange
import SlomoMedia
import SlomoPlot

/// `slomo inspect FILE`: what is in a media file.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what is in a media file: container, streams, frame rates, colour and HDR.",
        discussion: """
            Frame rates are exact fractions (30000/1001, not 29.97). With --frames, every packet \
            is read to measure the real frame intervals and tell variable-frame-rate video apart.

            Damage is shown as "damaged" rows (JSON: "damage"): a truncated file and a broken \
            container structure are found on opening; reading the packets (--frames) also checks \
            each video packet's structure (H.264 and HEVC units, JPEG markers, ProRes sizes); \
            with --verify every audio and video packet is decoded too, to find damaged media \
            data ("video: 12 packets could not be decoded cleanly between 2.10 s and 2.40 s"), \
            and the output ends with a verdict ("verified  all 2400 pictures and 469 audio \
            packets decoded cleanly"). With --verify the status is 2 when anything is damaged.

            Examples:
              slomo inspect clip.mov
              slomo inspect clip.mov --frames
              slomo inspect clip.mov --verify
              slomo inspect IMG_0001.MOV    # with its .AAE sidecar: slow-motion regions
              slomo inspect clip.mov --json | jq '.streams[0].video.nominalFrameRate'
              slomo inspect a.mov b.mov c.mp4 --json | jq '.[].duration'
              slomo inspect clip.mov --plot intervals.png

            Several files are shown one after the other (--json: an array); one that cannot be \
            read is reported on stderr, the others are still shown, and the status is 1.

            --plot FILE draws the first video stream's frame intervals against time (.png, \
            .svg or .pdf, by the extension), from the packets' timestamps: constant-rate video \
            is a flat line, variable frame rate steps between levels, dropped frames stand out \
            as spikes marked red. --plot implies --frames and takes one file; "plot: FILE" \
            goes to stderr.

            The JSON schema is documented in docs/inspect-json.md.

            \(ExitStatus.help)
            """)

    @Argument(help: "The media files to inspect.", completion: .file())
    var files: [String]

    @Flag(help: "Print JSON (a stable, documented schema) instead of a table.")
    var json = false

    @Flag(help: "Read every packet to measure frame intervals and detect variable frame rate.")
    var frames = false

    @Flag(help: "Decode every audio and video packet to find damage in the media data (takes as long as decoding the file); status 2 on damage.")
    var verify = false

    @OptionGroup var plot: PlotOptions

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Give at least one media file to inspect.") }
        if plot.plot != nil && files.count > 1 {
            throw ValidationError("--plot draws the frame intervals of one file; give one file, not \(files.count).")
        }
    }

    func run() throws {
        let plotFile = try plot.checkedFile()
        var reports: [MediaFile] = []
        var failures: [Error] = []
        for file in files {
            do {
                reports.append(try MediaFile.inspect(path: file, measureFrames: frames || plotFile != nil, verify: verify))
            } catch {
                guard files.count > 1 else { throw error }
                FileHandle.standardError.write(Data("Error: \(ExitStatus.message(error))\n".utf8))
                failures.append(error)
            }
        }
        if json {
            let documents = reports.map(InspectionJSON.init)
            let data = files.count == 1 ? try MediaFile.jsonEncoder.encode(documents[0]) : try MediaFile.jsonEncoder.encode(documents)
            print(String(decoding: data, as: UTF8.self))
        } else if !reports.isEmpty {
            print(reports.map { InspectionTable($0).text + phoneText($0) }.joined(separator: "\n\n"))
        }
        if let failure = failures.first { throw ExitCode(ExitStatus.of(failure)) }
        if let plotFile { try plot.draw(into: plotFile) { try FrameIntervalPlot(FrameIntervals(path: files[0])).write(to: $0) } }
        if reports.contains(where: { $0.verification?.clean == false }) { throw ExitCode(ExitStatus.damaged) }
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

/// `inspect --json`: the file's own JSON with `slomoVersion`, and a `phone` object when a
/// phone's slow motion is found (`{"error": …}` for a sidecar that does not parse).
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

    private enum Keys: String, CodingKey { case phone, slomoVersion }

    func encode(to encoder: any Swift.Encoder) throws {
        try file.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(SlomoVersion.current, forKey: .slomoVersion)
        if let phone { try container.encode(phone, forKey: .phone) }
        if let phoneError { try container.encode(["error": phoneError], forKey: .phone) }
    }
}
