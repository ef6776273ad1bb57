import Foundation
import SlomoCore
import SlomoExport
import SlomoInterchange
import SlomoMedia

/// What `retime` and `export` do once the composition and settings are known: the plan of a
/// dry run, or the export with progress and Ctrl-C, and the summary line.
enum ExportRunner {
    static func run(_ composition: Composition, to target: String, settings: ExportSettings,
                    video: VideoExportSettings, progress: ProgressPrinter, timeline timelinePath: String? = nil) throws {
        let timeline = try checkedTimeline(timelinePath, of: composition, overwrite: settings.overwrite)
        let session = ExportSession(composition: composition, to: target, settings: settings, video: video)
        let result = try perform(session, progress: progress)
        if let timeline, let timelinePath { try timeline.write(to: timelinePath, overwrite: settings.overwrite) }
        guard !progress.quiet else { return }
        let seconds = String(format: "%.3f", result.outputDuration.doubleSeconds)
        let audio = result.audioTracks == 0 ? "no audio"
            : "\(result.audioTracks) audio track(s) rendered with \(settings.audioAlgorithm)"
        switch settings.mode {
        case .passthrough:
            print("\(result.outputPath): \(seconds) s, \(result.videoFrames) video packets copied, \(audio)")
        case .constantFrameRate(let rate):
            let stats = session.decodeStatistics
            let source = if case .join(let pieces, _) = settings.part { "joined from \(pieces.count) pieces" }
                else { "\(stats.decodedFrames) of \(stats.packets) source frames decoded" }
            print("\(result.outputPath): \(seconds) s, \(result.videoFrames) frames at \(rate) fps (\(video.codec.rawValue)), \(source), \(audio)")
        }
        if let timelinePath { print("\(timelinePath): editor timeline of the same edit, referencing the original media") }
    }

    /// Runs `session` with its progress reported and Ctrl-C (SIGINT) or SIGTERM cancelling it:
    /// a cancelled export ends with status 130 or 143, its message said, nothing written.
    static func perform(_ session: ExportSession, progress: ProgressPrinter) throws -> ExportResult {
        let interrupt = Interrupt { session.cancel() }
        defer { withExtendedLifetime(interrupt) {} }
        do {
            return try progress.report(output: session.outputPath) { report in
                try session.run(progress: report)
            }
        } catch let error as ExportError where error.kind == .cancelled {
            guard let exitCode = interrupt.exitCode else { throw error }
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw exitCode
        }
    }

    /// A dry run: everything the export would check before writing, then the plan and what
    /// would be written.
    static func dryRun(_ composition: Composition, to target: String, settings: ExportSettings,
                       video: VideoExportSettings, timeline timelinePath: String?) throws {
        try ExportSession(composition: composition, to: target, settings: settings, video: video).check()
        _ = try checkedTimeline(timelinePath, of: composition, overwrite: settings.overwrite)
        print(try planText(composition, settings: settings, video: video))
        print("would write \(target)")
        if let timelinePath { print("would write \(timelinePath)") }
    }

    /// The timeline `--timeline` asks for, after checking its path may be written; nil without one.
    private static func checkedTimeline(_ path: String?, of composition: Composition, overwrite: Bool) throws -> Timeline? {
        guard let path else { return nil }
        guard TimelineFormat(path: path) != nil else {
            throw CommandError("--timeline must end in .otio, .fcpxml or .mlt, got '\(path)'")
        }
        try OutputPath.checkWritable(path, overwrite: overwrite)
        return try Timeline(composition)
    }

    /// The plan table, the frame choice of each segment for CFR, and what would be written.
    static func planText(_ composition: Composition, settings: ExportSettings, video: VideoExportSettings) throws -> String {
        let map = try composition.timeMap()
        let hasAudio = composition.hasAudio
        let audio = hasAudio ? "audio \(settings.audioAlgorithm), \(settings.audioCodec)" : "no audio"
        let frameTimes = try composition.frameTimes()
        func plan(_ rate: Rational?) throws -> Plan {
            let plan = try Plan(map, cfrFrameRate: rate, defaultAudio: settings.audioAlgorithm, frameTimes: frameTimes)
            return hasAudio ? plan : plan.withoutAudio()
        }
        var lines: [String] = []
        switch settings.mode {
        case .passthrough:
            lines.append(PlanCommand.table(try plan(nil)))
            lines.append("passthrough: video copied, \(audio)")
        case .constantFrameRate(let rate):
            let plan = try plan(rate)
            lines.append(PlanCommand.table(plan))
            let choices = video.frameChoices(for: map, frameRate: rate, frameTimes: frameTimes)
            lines.append("frame choice per segment:")
            for (index, (segment, choice)) in zip(plan.segments, choices).enumerated() {
                let effective = segment.effectiveFrameRate.map { String(format: "effective %.3f fps", $0) } ?? "effective fps unknown"
                var line = "  \(index + 1)  \(choice)  (\(effective), \(segment.outputFrames ?? 0) frames)"
                if choice == .interpolate { line += "  optical flow (\(video.interpolation.rawValue))" }
                lines.append(line)
            }
            var encoder = "\(video.codec.rawValue)"
            if let profile = video.profile { encoder += " \(profile)" }
            if let size = video.size { encoder += ", \(size) \(video.scaling.rawValue)" }
            lines.append("constant frame rate \(rate) fps: \(plan.outputFrames ?? 0) frames, \(encoder), \(audio)")
        }
        return lines.joined(separator: "\n")
    }
}
