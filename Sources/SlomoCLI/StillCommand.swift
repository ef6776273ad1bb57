import ArgumentParser
import Foundation
import SlomoCore
import SlomoMedia

/// `slomo still INPUT --at T -o FILE`: the picture shown at an instant as a PNG, TIFF or JPEG.
struct Still: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "still",
        abstract: "Write the picture shown at an instant (or several) as a PNG, TIFF or JPEG file.",
        discussion: """
            The still is the picture on screen at T: the frame with the latest presentation time \
            at or before T, so a time between two frames gives the earlier one. T is written as \
            section edges are (seconds, a timecode, a frame number at the nominal rate) and \
            counts from the video's first picture; it must lie before the end of the video.

            The output's extension picks the format. PNG and TIFF are 8-bit RGB, or 16-bit for \
            sources deeper than 8 bits (10-bit, 12-bit), which keep their precision (and HDR its \
            signal); JPEG is 8-bit at quality 95 %, HDR tone-mapped to SDR as exports do. Colour \
            is converted with the source's matrix and range; rotated videos come out upright.

            Several stills (more than one --at, or --every) need a pattern: {n} is the still's \
            number from 1 (zero-padded), {time} its time in seconds (3.250). The file is read \
            once, forwards, whatever the order of the times. Without -o the stills go beside \
            the input as INPUT-{time}.png.

            Examples:
              slomo still take.mov --at 3.2 -o impact.png
              slomo still take.mov --at f768 -o impact.tiff
              slomo still take.mov --at 00:00:03.250 -o impact.jpg
              slomo still take.mov --at 3.2 --at 3.25 --at 3.3 -o shot-{n}.png
              slomo still take.mov --every 0.5s -o sheet/frame-{time}.jpg
              slomo still take.mov --at 3.2 --json | jq '.time.exact'

            Each still is one line on stdout (with --json one JSON object a line: docs/stills.md). \
            An existing file is kept unless --overwrite (status 1, nothing written).

            \(ExitStatus.help)
            """)

    @Argument(help: "The movie to take stills from.", completion: .file())
    var input: String

    @Option(name: .customLong("at"), parsing: .unconditionalSingleValue,    // `--at -1` reads -1 as the value (and refuses it)
            help: ArgumentHelp("The instant: seconds (3.2, 3200ms), a timecode (00:00:03.200) or a frame (f768). Repeatable.",
                               valueName: "time"))
    var times: [String] = []

    @Option(help: ArgumentHelp("A still every so many seconds from 0 to the end (0.5, 0.5s, 500ms), instead of --at.",
                               valueName: "seconds"))
    var every: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("""
        The still's file (.png, .tif/.tiff, .jpg/.jpeg), or a pattern with {n} or {time} for several. \
        Default: INPUT-{time}.png beside the input.
        """, valueName: "file"), completion: .file(extensions: StillImageFormat.allCases.flatMap(\.extensions)))
    var output: String?

    @Flag(help: "Replace existing files.")
    var overwrite = false

    @Flag(help: "Print one JSON object a still (docs/stills.md) instead of a line of text.")
    var json = false

    private var outputPattern: StillNamePattern {
        StillNamePattern(output ?? (input as NSString).deletingPathExtension + "-{time}.png")
    }

    func run() throws {
        // Checked here, not in validate(): ArgumentParser wraps validate()'s errors, which would exit 1, not 64.
        switch (times.isEmpty, every) {
        case (true, nil): throw CommandError("give --at TIME (e.g. --at 3.2) or --every SECONDS (e.g. --every 0.5)")
        case (false, .some): throw CommandError("give --at or --every, not both")
        default: break
        }
        _ = try asUsage(option: "-o", outputPattern.pattern) { () throws(MediaError) in try StillImageFormat(path: outputPattern.pattern) }
        let extractor = try StillExtractor(path: input)
        let requested = try requestedTimes(of: extractor)
        let names = try asUsage(option: "-o", outputPattern.pattern) { () throws(MediaError) in try outputPattern.names(for: requested) }
        for name in names {
            if OutputPath.sameFile(name, input) { throw CommandError("-o \(name): that is the input; give another name") }
            try OutputPath.checkWritable(name, overwrite: overwrite)
        }
        let writer = StillImageWriter(video: extractor.video, overwrite: overwrite)
        try extractor.pictures(at: requested) { index, picture in
            let still = try writer.write(picture.frame, to: names[index])
            print(json ? try Self.jsonLine(still, picture, input: input) : Self.line(still, picture))
        }
    }

    /// The times asked for by `--at` or `--every`, each checked against the video.
    private func requestedTimes(of extractor: StillExtractor) throws -> [MediaTime] {
        if let every {
            guard let interval = try? MediaTime(parsing: every), interval > .zero else {
                throw CommandError("--every \(every): give a positive number of seconds, such as 0.5, 0.5s or 500ms")
            }
            return try asUsage(option: "--every", every) { () throws(MediaError) in try extractor.times(every: interval) }
        }
        let clip = TimeRange(start: .zero, end: extractor.duration)
        return try times.map { text in
            let time: MediaTime
            do {
                let position = try SectionSpec.Position(parsing: text)
                if position == .end {
                    throw CommandError("--at end: the end is after the last picture; give a time before "
                                       + "\(extractor.duration.formattedSeconds()) s (the video's duration)")
                }
                time = try position.sourceTime(in: clip, frameRate: extractor.file.clipFrameRate)
            } catch let error as TimeModelError {
                throw CommandError("--at \(text): \(error.problem)")
            }
            try asUsage(option: "--at", text) { () throws(MediaError) in try extractor.check(time) }
            return time
        }
    }

    /// `body`'s result; its `MediaError` becomes a usage error about `option value`.
    private func asUsage<T>(option: String, _ value: String, _ body: () throws(MediaError) -> T) throws -> T {
        do { return try body() } catch { throw CommandError("\(option) \(value): \(error.detail)") }
    }

    /// `impact.png: frame 770 at 3.208 s (asked 3.210 s), 1280x720, 8-bit PNG`.
    static func line(_ still: StillImage, _ picture: StillExtractor.Picture) -> String {
        let frame = picture.index.map { "frame \($0)" } ?? "the picture"
        let asked = picture.requested == picture.time ? "" : " (asked \(picture.requested.formattedSeconds()) s)"
        let toneMapped = still.toneMapped ? ", tone-mapped to SDR" : ""
        return "\(still.path): \(frame) at \(picture.time.formattedSeconds()) s\(asked), \(still.width)x\(still.height), "
            + "\(still.bitDepth)-bit \(still.format.rawValue.uppercased())\(toneMapped)"
    }

    /// One line of `--json` (docs/stills.md).
    static func jsonLine(_ still: StillImage, _ picture: StillExtractor.Picture, input: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(StillJSON(still, picture, input: input)), as: UTF8.self)
    }
}

/// `still --json`: one still (docs/stills.md).
private struct StillJSON: Encodable {
    let schemaVersion = 1
    let slomoVersion = SlomoVersion.current
    let input: String
    let path: String
    let format: StillImageFormat
    let requested: MediaTime
    let time: MediaTime
    let pts: Int64
    let timeBase: Rational
    let frame: Int?
    let width: Int
    let height: Int
    let bitDepth: Int
    let toneMapped: Bool

    init(_ still: StillImage, _ picture: StillExtractor.Picture, input: String) {
        self.input = input
        path = still.path
        format = still.format
        requested = picture.requested
        time = picture.time
        pts = picture.pts
        timeBase = picture.timeBase
        frame = picture.index
        width = still.width
        height = still.height
        bitDepth = still.bitDepth
        toneMapped = still.toneMapped
    }
}
