import ArgumentParser
import Foundation
import SlomoCapture
import SlomoCore
import SlomoMedia
import SlomoPlayback

/// `slomo capture --input SPEC… -o take.mov`: record high-frame-rate video.
struct Capture: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Record high-frame-rate video (240 fps and more) into a crash-safe fragmented movie.",
        discussion: """
            Inputs (--input, repeatable for simultaneous sources):
              testsrc:1280x720@240     a synthetic source paced in real time
              x11::99[+X,Y][/WxH][@FPS] an X screen or a part of it (at 30 fps unless @FPS)
              v4l2:/dev/video0         a camera (--format 1280x720@240, --pixel-format mjpeg)
              url:udp://0.0.0.0:5000   any FFmpeg input: UDP/RTP/SRT/RTSP, a pipe, a file at its rate
              sine:440                 a test tone
              pulse:SOURCE, alsa:DEVICE   sound (run `slomo devices` for names)

            Raw video is encoded with H.264 (libx264 ultrafast/zerolatency; --codec hevc, prores or \
            ffv1, the names export uses); compressed \
            video (MJPEG/H.264 cameras, streams) is copied. The file is fragmented MOV/MP4 with a \
            fragment every --fragment seconds, written in place and flushed after every fragment: \
            a crash loses at most one fragment. Ctrl-C stops and finalises the file.

            Pause and resume: SIGUSR1 pauses the recording, SIGUSR2 resumes it \
            (`kill -USR1 PID`); the file's time line continues without a gap. --duration counts \
            recorded time, not pauses.

            Commands while recording (--command-fifo PATH, one a line): `meta KEY=VALUE` adds a \
            tag (in the file from the next fragment, so a crash keeps it), `still PATH` writes the \
            frame being recorded (.png, .tiff, .jpg), `pause`, `resume`. A bad line is reported \
            and the recording goes on: echo "meta location=Court 3" > take.cmd

            Camera settings (v4l2): --exposure, --focus, --white-balance, --flicker and --torch map \
            to whatever the camera names its controls; --control NAME=VALUE sets any control `slomo \
            devices --controls` lists. They are checked against the camera's ranges before anything \
            opens, set before the recording starts, held for the session (no other program changes \
            them meanwhile) and written into the movie's metadata (camera_controls). A --format with \
            a rate turns off exposure priority, which would let the camera lower its rate in dim light.

            Exit status: 0 when the recording finished (on a limit or Ctrl-C), 1 on an error \
            (nothing usable or the file could not be finished), 3 when the source was lost and the \
            file was finalised up to that point, 64 for a bad option or value.

            Examples:
              slomo capture --input testsrc:1280x720@240 --duration 10 -o take.mov
              slomo capture --input x11::0+0,0/1280x720@60 -o screen.mp4
              slomo capture --input testsrc:1280x720@240 --preview -o framed.mov
              slomo capture --input v4l2:/dev/video0 --format 1280x720@120 -o cam.mov
              slomo capture --input v4l2:/dev/video0 --format 1280x720@240 \\
                --exposure 1/1000 --focus locked --white-balance 5600 -o impact.mov
              slomo capture --input testsrc:1280x720@240 --command-fifo take.cmd -o t.mov
            """)

    @Option(name: .customLong("input"), help: ArgumentHelp("A source, e.g. testsrc:1280x720@240 (repeatable).", valueName: "spec"))
    var inputs: [String] = []

    @Option(name: .shortAndLong, help: "The movie to record (.mov or .mp4).", completion: .file(extensions: ["mov", "mp4"]))
    var output: String

    @Option(help: ArgumentHelp("Stop after this long: 10, 10s, 2m, 1h.", valueName: "time"))
    var duration: String?

    @Option(name: .customLong("max-size"), help: ArgumentHelp("Stop before the file grows past this: 500M, 2G.", valueName: "bytes"))
    var maxSize: String?

    @Option(name: .customLong("min-free"), help: ArgumentHelp("Stop before the disk has less free space than this; 0 turns it off.", valueName: "bytes"))
    var minFree: String = "64M"

    @Option(help: ArgumentHelp("Fragment interval: at most what a crash loses.", valueName: "time"))
    var fragment: String = "2s"

    @Option(help: ArgumentHelp("Codec for raw video: h264, hevc, prores or ffv1, in their fastest real-time settings.",
                               valueName: "codec"),
            completion: .list(VideoCodec.allCases.map(\.rawValue)))
    var codec: String = "h264"

    @Option(name: .customLong("audio-codec"),
            help: ArgumentHelp("How raw sound is stored: pcm (.mov only) or aac (default: aac in .mp4, pcm in .mov).", valueName: "codec"))
    var audioCodec: String?

    @Option(help: ArgumentHelp("Camera format: WIDTHxHEIGHT@FPS (v4l2).", valueName: "format"))
    var format: String?

    @Option(name: .customLong("pixel-format"), help: ArgumentHelp("Camera pixel format: mjpeg, yuyv422, h264 (v4l2).", valueName: "name"))
    var pixelFormat: String?

    @Option(help: ArgumentHelp("Size of the recorded picture, e.g. 1280x720 (even numbers), as in export; "
                               + "the screen rectangle goes in the input: x11::0+X,Y/WxH.", valueName: "WxH"))
    var size: String?

    @Option(help: .hidden)
    var fps: String?

    @Option(help: ArgumentHelp("Scale factor for encoded video, e.g. 0.5.", valueName: "factor"))
    var scale: Double?

    @Flag(inversion: .prefixedNo, help: "Draw the mouse cursor (x11).")
    var cursor = true

    @Option(help: ArgumentHelp("Seconds to wait for a URL or device to answer (default 10).", valueName: "seconds"))
    var timeout: Double?

    /// `--timeout`, or 10 s.
    private var openTimeout: Double { timeout ?? 10 }

    @Option(name: .customLong("meta"), help: ArgumentHelp("A tag for the file, key=value (repeatable).", valueName: "key=value"))
    var metadata: [String] = []

    @Flag(help: "Replace the output file if it exists.")
    var overwrite = false

    @Flag(help: "Show what is recorded in a window, with the status in its title (never slows the recording).")
    var preview = false

    /// JSON lines of every preview frame shown (tests; docs/capture.md).
    @Option(name: .customLong("preview-log"), help: .hidden)
    var previewLog: String?

    @Option(name: .customLong("command-fifo"),
            help: ArgumentHelp("Read commands while recording from this named pipe (made if missing): "
                               + "meta KEY=VALUE, still PATH, pause, resume.", valueName: "path"))
    var commandFIFO: String?

    @OptionGroup(title: "Camera settings (v4l2)") var cameraOptions: CameraControlOptions

    @OptionGroup var progressOptions: ProgressOptions

    func validate() throws {
        guard VideoCodec(rawValue: codec) != nil else {
            throw ValidationError("unknown --codec '\(codec)'; expected " + VideoCodec.allCases.map(\.rawValue).joined(separator: ", ")
                                  + (codec.hasPrefix("lib") ? " (libx264 is h264, libx265 is hevc)" : ""))
        }
        guard !inputs.isEmpty else { throw ValidationError("Give at least one --input, e.g. --input testsrc:1280x720@240.") }
        // The command line only reads the values; their limits are the library's
        // (MovieFileOutput.Settings), checked once when the recording starts.
        if let duration, Self.seconds(duration) == nil {
            throw ValidationError("--duration expects a time such as 10, 10s, 2m or 1h, got '\(duration)'.")
        }
        if Self.seconds(fragment) == nil {
            throw ValidationError("--fragment expects a time such as 2s or 500ms, got '\(fragment)'.")
        }
        if let maxSize, Self.bytes(maxSize) == nil {
            throw ValidationError("--max-size expects a size such as 500M or 2G, got '\(maxSize)'.")
        }
        if Self.bytes(minFree) == nil { throw ValidationError("--min-free expects a size such as 64M or 0, got '\(minFree)'.") }
        if let format, CaptureFormat.Request(parsing: format) == nil {
            throw ValidationError("--format expects WIDTHxHEIGHT@FPS such as 1280x720@240, got '\(format)'.")
        }
        if let size, OutputSettings.Size(parsing: size) == nil {
            throw ValidationError("--size expects WIDTHxHEIGHT such as 1280x720, got '\(size)'.")
        }
        if fps != nil {
            throw ValidationError("--fps is export's output frame rate; a source's rate goes in its --input, "
                                  + "e.g. x11::0@60 or testsrc:1280x720@240.")
        }
        if let audioCodec, AudioCodec(rawValue: audioCodec) == nil {
            let names = MovieFileOutput.recordingAudioCodecs.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--audio-codec expects one of \(names), got '\(audioCodec)'.")
        }
        for item in metadata where !item.contains("=") || item.hasPrefix("=") {
            throw ValidationError("--meta expects key=value, got '\(item)'.")
        }
    }

    func run() throws {
        var parsing = CaptureInput.ParsingOptions()
        parsing.format = format.flatMap { CaptureFormat.Request(parsing: $0) }
        parsing.pixelFormat = pixelFormat
        parsing.drawsCursor = cursor
        parsing.timeoutSeconds = openTimeout
        let session = CaptureSession()
        session.openTimeout = openTimeout
        for spec in inputs { try session.add(CaptureInput(parsing: spec, options: parsing)) }
        let requests = try cameraOptions.requests()
        if let camera = try cameraOptions.camera(among: session.inputs, asked: requests) {
            let setup = try camera.setup(requests, frameRate: parsing.format?.frameRate)
            try session.add(camera, setup: setup)
            if !progressOptions.quiet { Self.describe(setup, of: camera) }
        }

        var settings = MovieFileOutput.Settings(path: output)
        settings.fragmentInterval = .seconds(Self.seconds(fragment)!)
        settings.maxDuration = duration.flatMap(Self.seconds).map { .seconds($0) }
        settings.maxSize = maxSize.flatMap(Self.bytes)
        let minimumFree = Self.bytes(minFree)!
        settings.minFreeSpace = minimumFree > 0 ? minimumFree : nil
        settings.encodeRawVideo(with: VideoCodec(rawValue: codec)!)
        settings.scale = scale
        settings.size = size.flatMap(OutputSettings.Size.init(parsing:))
        settings.audioCodec = audioCodec.flatMap { AudioCodec(rawValue: $0) }
        settings.overwrite = overwrite
        for item in metadata {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            settings.metadata[String(parts[0])] = String(parts[1])
        }
        let movie = try session.add(MovieFileOutput(settings: settings))
        let meter = AudioLevelMeter()
        try session.add(meter)

        let printer = CaptureStatusPrinter(style: progressOptions.style, limit: settings.maxDuration?.doubleSeconds)
        let commands = try commandFIFO.map { path throws(CaptureError) in
            try CaptureCommandFIFO(path: path, movie: movie) { [style = printer.style] report in
                CaptureStatusPrinter.command(report, style: style)
            }
        }
        try commands?.attach(to: session)
        let livePreview = preview ? try CapturePreview(session: session, title: "slomo capture — \((output as NSString).lastPathComponent)",
                                                  presentationLog: previewLog) : nil
        let interrupt = Interrupt { session.stopRunning() }
        let pause = Interrupt(signals: [SIGUSR1]) { movie.pauseRecording() }
        let resume = Interrupt(signals: [SIGUSR2]) { movie.resumeRecording() }
        defer { withExtendedLifetime((interrupt, pause, resume)) {} }
        try session.startRunning()
        if !progressOptions.quiet {
            for (input, rate) in zip(session.inputs, session.grantedFrameRates) {
                guard let rate, input.kind == .camera || input.kind == .screen else { continue }
                FileHandle.standardError.write(Data("\(input.label): \(String(format: "%.3f", rate.doubleValue)) fps granted\n".utf8))
            }
        }
        commands?.start()
        defer { commands?.stop() }
        var previewProblemSaid = false
        while !session.waitUntilFinished(timeout: printer.style == .json ? 0.5 : 0.25) {
            let statistics = session.statistics()
            printer.status(statistics)
            if let livePreview {
                livePreview.setStatus(CaptureStatusLine.text(statistics, limit: settings.maxDuration?.doubleSeconds, width: 120)
                                 + " · preview skipped \(livePreview.skippedFrames)")
                if let problem = livePreview.problem, !previewProblemSaid {
                    FileHandle.standardError.write(Data("\nslomo: no preview (\(problem)); the recording goes on\n".utf8))
                    previewProblemSaid = true
                }
            }
        }
        printer.status(session.statistics(), final: true)
        guard let result = movie.result else { throw CaptureError(.internalError, "the recording did not finish") }
        printer.finished(result)
        if !result.finishedSuccessfully {
            throw CaptureError(.outputProblem, "\(result.path): \(result.reason)" + (result.finishingProblem.map { " (\($0))" } ?? "")
                               + (result.fileSize > 0 ? "; the fragments written so far are playable" : ""))
        }
        if let livePreview, !progressOptions.quiet {
            FileHandle.standardError.write(Data(("preview: \(livePreview.shownFrames) frames shown, \(livePreview.skippedFrames) skipped "
                                                 + "for newer ones (the recording has every frame)\n").utf8))
        }
        if !progressOptions.quiet {
            let paused = result.pausedSeconds > 0 ? String(format: ", %.3f s paused", result.pausedSeconds) : ""
            print("\(result.path): \(String(format: "%.3f", result.duration)) s, \(result.videoFrames) frames, "
                  + "\(result.counters.dropped) dropped\(paused), \(Self.megabytes(result.fileSize)); \(result.reason); finished successfully")
        }
        if result.reason.isProblem {
            FileHandle.standardError.write(Data("slomo: \(result.reason); the file was finalised up to that point: \(result.path)\n".utf8))
            throw ExitCode(3)
        }
    }

    /// The controls a recording sets, and why, on stderr.
    private static func describe(_ setup: CameraSetup, of camera: CameraControls) {
        guard !setup.assignments.isEmpty else { return }
        let writes = setup.assignments.map { "\($0.control.name)=\($0.control.describe($0.value))" }
        var text = "\(camera.label): setting \(writes.joined(separator: ", "))\n"
        for note in setup.notes { text += "slomo: \(note)\n" }
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// `10`, `10s`, `1.5s`, `2m`, `1h`, `500ms` as seconds.
    /// A time in slomo's one grammar (docs/sections.md: `10`, `10s`, `1500ms`, `2m`, `1h`,
    /// `00:01:30`) in seconds; nil when it does not parse.
    static func seconds(_ text: String) -> Double? {
        (try? MediaTime(parsing: text))?.doubleSeconds
    }

    /// `1048576`, `500K`, `64M`, `2G` (powers of 1024) as bytes.
    static func bytes(_ text: String) -> Int64? {
        let upper = text.uppercased().replacingOccurrences(of: "IB", with: "").replacingOccurrences(of: "B", with: "")
        let factors: [Character: Double] = ["K": 1024, "M": 1024 * 1024, "G": 1024 * 1024 * 1024, "T": 1024 * 1024 * 1024 * 1024]
        if let last = upper.last, let factor = factors[last] {
            return Double(upper.dropLast()).flatMap { $0 >= 0 ? Int64($0 * factor) : nil }
        }
        return Int64(upper).flatMap { $0 >= 0 ? $0 : nil }
    }

    static func megabytes(_ bytes: Int64) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
}

/// Live capture status on stderr: a line that rewrites itself, fitted to the terminal
/// (`CaptureStatusLine`), or one JSON object a line.
struct CaptureStatusPrinter {
    let style: ProgressOptions.Style
    let limit: Double?
    let width = TerminalWidth()

    private struct Line: Encodable {
        let event: String
        let elapsed: Double
        let recordedSeconds: Double
        let frames: Int
        let fps: Double?
        let dropped: Int
        let queued: Int
        let fileSize: Int64
        let audioLevels: [[String: Double]]
        let paused: Bool
    }

    private struct Finished: Encodable {
        let event = "finished"
        let path: String
        let reason: String
        let message: String
        let finishedSuccessfully: Bool
        let duration: Double
        let frames: Int
        let received: Int
        let dropped: Int
        let skippedWhilePaused: Int
        let pausedSeconds: Double
        let fileSize: Int64
    }

    func status(_ stats: CaptureStatistics, final: Bool = false) {
        switch style {
        case .none:
            return
        case .json:
            let levels = stats.audioLevels.map { ["average": Self.round($0.averagePower), "peak": Self.round($0.peakHold)] }
            emit(Line(event: "status", elapsed: Self.round(stats.elapsed), recordedSeconds: Self.round(stats.recordedSeconds),
                      frames: stats.video.delivered, fps: stats.measuredFrameRate.map { Self.round($0) },
                      dropped: stats.video.dropped, queued: stats.video.queued, fileSize: stats.fileSize, audioLevels: levels,
                      paused: stats.isPaused))
        case .bar:
            let text = CaptureStatusLine.text(stats, limit: limit, width: width.current)
            FileHandle.standardError.write(Data(("\r" + text + "\u{1B}[K" + (final ? "\n" : "")).utf8))
        }
    }

    /// A line read from the command FIFO and what became of it.
    static func command(_ report: CaptureCommandFIFO.Report, style: ProgressOptions.Style) {
        switch style {
        case .json:
            emit(Command(line: report.line, succeeded: report.succeeded, message: report.message))
        case .bar, .none:
            let text = (report.succeeded ? "slomo: \(report.command.map { "\($0)" } ?? report.line): " : "slomo: bad command ")
                + report.message
            FileHandle.standardError.write(Data(((style == .bar ? "\r\u{1B}[K" : "") + text + "\n").utf8))
        }
    }

    private struct Command: Encodable {
        let event = "command"
        let line: String
        let succeeded: Bool
        let message: String
    }

    func finished(_ result: RecordingResult) {
        guard style == .json else { return }
        emit(Finished(path: result.path, reason: result.reason.code, message: result.reason.description,
                      finishedSuccessfully: result.finishedSuccessfully, duration: Self.round(result.duration),
                      frames: result.videoFrames, received: result.counters.received, dropped: result.counters.dropped,
                      skippedWhilePaused: result.counters.skippedWhilePaused, pausedSeconds: Self.round(result.pausedSeconds),
                      fileSize: result.fileSize))
    }

    private func emit(_ value: some Encodable) { Self.emit(value) }

    private static func emit(_ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(value) else { return }
        FileHandle.standardError.write(data + Data("\n".utf8))
    }

    private static func round(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
