import ArgumentParser
import Foundation
import SlomoCore
import SlomoExport
import SlomoInterchange
import SlomoMedia

/// `-o`, `--overwrite`, `--timeline`, `--strict`, `--verify`, `--dry-run`: where an export goes
/// and what it makes of a damaged input. Shared by `retime` and `export`.
struct OutputOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "Output movie (.mov or .mp4; .mkv for ffv1). Default: beside the input, named INPUT-slomo.EXT.",
            completion: .file(extensions: ["mov", "mp4", "m4v", "mkv"]))
    var output: String?

    @Flag(help: "Replace the output file if it exists.")
    var overwrite = false

    @Option(help: ArgumentHelp("Also write the composition as an editor timeline referencing the original media (.otio, .fcpxml or .mlt).",
                               valueName: "file"), completion: .file(extensions: TimelineFormat.allCases.map(\.rawValue)))
    var timeline: String?

    @Flag(help: "Refuse a damaged input (truncated, broken structure, data that does not decode) instead of exporting what can be read: exit 1, nothing written.")
    var strict = false

    @Flag(inversion: .prefixedNo, help: ArgumentHelp("""
        Decode the video passthrough copies, to find damage in the media data (a flipped byte inside a picture) that \
        only decoding sees; one decoder per core (up to four) checks it, and the video is still copied bit for bit. \
        Without it passthrough runs at the speed of a copy and checks each packet's structure: the file's boxes and \
        index, and the coded data's framing (H.264 and HEVC units, JPEG markers, ProRes sizes). A --cfr export \
        reports what its own decoding meets either way; with --verify each of its decoders uses one thread, to see \
        every concealed picture.
        """))
    var verify = false

    @Flag(name: .customLong("dry-run"), help: "Print the plan (time map, effective fps, output frames, frame choice) and write nothing.")
    var dryRun = false
}

/// `--audio`, `--spectral-engine`: which algorithm renders audio. Shared by `retime`,
/// `export`, `stretch` (through `AudioOptions`) and `play`.
struct AudioAlgorithmOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Audio algorithm for sections without their own: spectral (default), time-domain, low-latency, varispeed.",
                               valueName: "name"),
            completion: .list(TimePitchAlgorithm.allCases.map(\.rawValue)))
    var audio: String?

    @Option(name: .customLong("spectral-engine"), help: ArgumentHelp("""
        Engine of the spectral algorithm: phase-gradient (default: slomo's own phase vocoder, attacks on their \
        frame, clean tones) or rubberband (Rubber Band R3: a softer, smeared character some prefer on dense music).
        """, valueName: "engine"),
            completion: .list(SpectralEngine.allCases.map(\.rawValue)))
    var spectralEngine: String?

    /// The spectral engine: the option, else `fallback` (an edit script's), else phase-gradient.
    func engine(fallback: SpectralEngine? = nil) throws -> SpectralEngine {
        if let spectralEngine { return try optionValue { try SpectralEngine(parsing: spectralEngine) } }
        return fallback ?? .defaultEngine
    }

    /// The algorithm: the option, else `fallback`, else spectral.
    func algorithm(fallback: TimePitchAlgorithm? = nil) throws -> TimePitchAlgorithm {
        if let audio { return try optionValue { try TimePitchAlgorithm(parsing: audio) } }
        return fallback ?? .spectral
    }
}

/// `--audio`, `--spectral-engine`, `--audio-codec`: how audio is rendered and encoded. Shared
/// by `retime`, `export` and `stretch`.
struct AudioOptions: ParsableArguments {
    @OptionGroup var algorithms: AudioAlgorithmOptions

    @Option(name: .customLong("audio-codec"), help: ArgumentHelp("Audio codec: aac (default in movies; pcm for a ProRes export of PCM sound), alac, pcm, flac, mp3, opus, vorbis; stretch takes it from the output's extension.", valueName: "codec"),
            completion: .list(AudioCodec.allCases.map(\.rawValue)))
    var audioCodec: String?

    @Option(name: .customLong("sample-format"),
            help: ArgumentHelp("Samples of lossless audio (pcm, flac, alac): s16, s24, s32, f32 (default: the source's; 24-bit stays 24-bit).",
                               valueName: "format"),
            completion: .list(SampleDepth.allCases.map(\.rawValue)))
    var sampleFormat: String?

    @Option(parsing: .unconditional,    // so that `--gain -3` reads -3 as the value, not as an option
            help: ArgumentHelp("Gain applied to the rendered audio, in dB, e.g. -3 or 2.5 (default 0).", valueName: "dB"))
    var gain: Double?

    @Option(parsing: .unconditional,    // `--pitch -12` reads -12 as the value
            help: ArgumentHelp("Shift the pitch by this many semitones (fractions are cents: 0.5 = 50 cents), independent of the rate, -24 to 24 (default 0); not with varispeed.",
                               valueName: "semitones"))
    var pitch: Double?

    @Option(help: ArgumentHelp("True-peak limiter that keeps integer and lossy outputs under -1 dBTP: on (default) or off.",
                               valueName: "on|off"),
            completion: .list(["on", "off"]))
    var limiter: String?

    /// Whether the limiter is on; a usage error for anything but on and off.
    func limiterOn() throws -> Bool {
        switch limiter?.lowercased() {
        case nil, "on": return true
        case "off": return false
        case let other?: throw CommandError("--limiter takes on or off, not '\(other)'")
        }
    }

    /// The pitch shift in semitones (0 without `--pitch`).
    var semitones: Double { pitch ?? 0 }

    /// The lossless sample format asked for; nil for the source's.
    func depth() throws -> SampleDepth? {
        guard let sampleFormat else { return nil }
        guard let depth = SampleDepth(rawValue: sampleFormat.lowercased()) else {
            throw CommandError("unknown sample format '\(sampleFormat)' (--sample-format); expected "
                               + SampleDepth.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return depth
    }

    /// The gain in dB; a usage error beyond ±60 dB or not a number.
    func gainDecibels() throws -> Double {
        guard let gain else { return 0 }
        guard gain.isFinite, abs(gain) <= 60 else {
            throw CommandError("--gain \(gain): give a gain in dB between -60 and 60, such as -3")
        }
        return gain
    }

    func engine(fallback: SpectralEngine? = nil) throws -> SpectralEngine { try algorithms.engine(fallback: fallback) }
    func algorithm(fallback: TimePitchAlgorithm? = nil) throws -> TimePitchAlgorithm { try algorithms.algorithm(fallback: fallback) }

    /// The audio codec: the option, else `fallback` (an edit script's), else AAC.
    func codec(fallback: AudioCodec? = nil) throws -> AudioCodec {
        guard let name = audioCodec else { return fallback ?? .aac }
        guard let codec = AudioCodec(rawValue: name) else {
            throw CommandError("unknown audio codec '\(name)' (--audio-codec); expected \(AudioCodec.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return codec
    }
}

/// The constant-frame-rate options. Shared by `retime --cfr` and `export`.
struct CFROptions: ParsableArguments {
    @Option(name: [.customLong("cfr"), .customLong("fps")],
            help: ArgumentHelp("Render a constant-frame-rate movie at this rate and re-encode: 30, 29.97 (= 30000/1001), 30000/1001, or source (the source's own rate).",
                               valueName: "fps"))
    var cfr: String?

    @Option(help: ArgumentHelp("""
        How each output frame is made (sections may override with :frames=): auto (default: nearest where a section \
        has enough source frames, interpolate where not), nearest, blend (mix the two neighbouring source frames), \
        interpolate (optical-flow in-between frames where a section lacks source frames, nearest elsewhere; scene \
        cuts show the source frame).
        """, valueName: "choice"),
            completion: .list(FrameChoice.allCases.map(\.rawValue)))
    var frames: String?

    @Option(help: ArgumentHelp("""
        Optical-flow preset of interpolated frames: fast (default), quality (finer flow, about 4x slower), \
        draft (coarser, about 40% faster).
        """, valueName: "preset"),
            completion: .list(InterpolationPreset.allCases.map(\.rawValue)))
    var interpolation: String?

    @Option(help: ArgumentHelp("""
        Shutter angle in degrees, 0-360, for motion blur: each frame mixes, in light, the source pictures seen while \
        its shutter is open (angle/360 of a frame, through the time map); 180 blurs as a film camera does. 0 \
        (default) takes each frame at an instant.
        """, valueName: "degrees"))
    var shutter: String?

    @Option(name: .customLong("shutter-samples"), help: ArgumentHelp("""
        Pictures an exposure is made of where it sees fewer than two source pictures (slow sections), made by \
        --frames (interpolate: optical flow) across it; 1 (default) keeps such frames sharp.
        """, valueName: "n"))
    var shutterSamples: Int?

    @Option(help: ArgumentHelp("Video codec: h264 (libx264, default), hevc (libx265, 10-bit from 10-bit sources), prores, ffv1.",
                               valueName: "codec"),
            completion: .list(VideoExportSettings.Codec.allCases.map(\.rawValue)))
    var codec: String?

    @Option(help: ArgumentHelp("Codec profile: prores proxy|lt|standard|hq|4444|4444xq (default hq); h264 high|main|baseline; hevc main|main10.",
                               valueName: "name"))
    var profile: String?

    @Option(help: ArgumentHelp("Constant rate factor for h264/hevc, 0-51 (default 20 for h264, 24 for hevc).", valueName: "n"))
    var crf: Double?

    @Option(help: ArgumentHelp("Target video bit rate instead of --crf, e.g. 8M or 2500k.", valueName: "rate"))
    var bitrate: String?

    @Option(help: ArgumentHelp("x264/x265 preset, ultrafast … veryslow (default medium).", valueName: "name"),
            completion: .list(VideoExportSettings.presets))
    var preset: String?

    @Option(help: ArgumentHelp("Keyframe interval in frames.", valueName: "frames"))
    var gop: Int?

    @Option(help: ArgumentHelp("Output frame size, e.g. 1280x720 (even numbers).", valueName: "WxH"))
    var size: String?

    @Option(help: ArgumentHelp("""
        How pictures fit --size: aspect (default: keep aspect, letterbox with black), aspect-fill (keep aspect, fill \
        and crop), resize (stretch to the box), fit (scale down to fit, never up, no bars).
        """, valueName: "mode"),
            completion: .list(OutputSettings.Scaling.allCases.map(\.rawValue)))
    var scaling: String?

    @Option(name: .customLong("tone-map"), help: ArgumentHelp("HDR into h264: auto (tone-map to SDR BT.709, default) or off (refuse).",
                                                            valueName: "mode"),
            completion: .list(VideoExportSettings.ToneMapping.allCases.map(\.rawValue)))
    var toneMap: String?

    /// True when any CFR-only option was given.
    var anyVideoOption: Bool {
        [frames, interpolation, codec, profile, bitrate, preset, size, scaling, toneMap, shutter].contains { $0 != nil }
            || crf != nil || gop != nil || shutterSamples != nil
    }

    /// The output frame rate: the option (`source` read from `composition`), else `fallback`
    /// (an edit script's); nil for none.
    func frameRate(for composition: Composition, fallback: Rational? = nil) throws -> Rational? {
        try cfr.map { try OutputFrameRate.typed($0, option: "--cfr", for: composition) } ?? fallback
    }

    /// The video settings, the options overriding `script` (an edit script's output settings).
    func videoSettings(script: OutputSettings = OutputSettings()) throws -> VideoExportSettings {
        // The script's own settings (the library reads them), then the options over them.
        var settings = try script.videoSettings()
        if let name = codec {
            guard let codec = VideoExportSettings.Codec(rawValue: name.lowercased()) else {
                throw CommandError("unknown video codec '\(name)' (--codec); expected "
                                   + VideoExportSettings.Codec.allCases.map(\.rawValue).joined(separator: ", "))
            }
            settings.codec = codec
        }
        settings.profile = profile?.lowercased()
        settings.crf = crf
        settings.preset = preset
        settings.gop = gop
        if let bitrate {
            guard let bits = Self.bitRate(bitrate) else {
                throw CommandError("--bitrate expects bits per second such as 8M, 2500k or 800000, got '\(bitrate)'")
            }
            settings.bitRate = bits
        }
        if let frames { settings.frames = try optionValue { try FrameChoice(parsing: frames) } }
        if let interpolation { settings.interpolation = try optionValue { try InterpolationPreset(parsing: interpolation) } }
        if let shutter {
            guard let angle = Rational(decimal: shutter.hasSuffix("°") ? String(shutter.dropLast()) : shutter) else {
                throw CommandError("--shutter expects an angle in degrees such as 180, got '\(shutter)'")
            }
            settings.shutter.angle = angle
        }
        if let shutterSamples { settings.shutter.samples = shutterSamples }
        if let text = size {
            guard let parsed = Self.size(text) else {
                throw CommandError("--size expects WIDTHxHEIGHT with even, positive numbers such as 1280x720, got '\(text)'")
            }
            settings.size = parsed
        }
        if let name = scaling {
            guard let mode = OutputSettings.Scaling(rawValue: name) else {
                throw CommandError("unknown --scaling '\(name)'; expected fit, resize, aspect or aspect-fill")
            }
            settings.scaling = mode
        }
        if let toneMap {
            guard let mode = VideoExportSettings.ToneMapping(rawValue: toneMap) else {
                throw CommandError("unknown --tone-map '\(toneMap)'; expected auto or off")
            }
            settings.toneMapping = mode
        }
        return settings
    }

    /// `8M`, `2500k`, `800000`.
    static func bitRate(_ text: String) -> Int? {
        let lower = text.lowercased()
        let factor = lower.hasSuffix("m") ? 1_000_000.0 : lower.hasSuffix("k") ? 1000.0 : 1
        let digits = factor == 1 ? lower : String(lower.dropLast())
        guard let value = Double(digits), value > 0, value * factor < 1e12 else { return nil }
        return Int(value * factor)
    }

    /// `WxH`, including zero and odd sizes (so that the library names the problem).
    static func size(_ text: String) -> OutputSettings.Size? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width >= 0, height >= 0 else { return nil }
        return OutputSettings.Size(width: width, height: height)
    }
}

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
