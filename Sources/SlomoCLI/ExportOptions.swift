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

    /// The spectral engine the option names; nil without it.
    func chosenEngine() throws -> SpectralEngine? {
        try spectralEngine.map { name in try optionValue { try SpectralEngine(parsing: name) } }
    }

    /// The algorithm the option names; nil without it.
    func chosenAlgorithm() throws -> TimePitchAlgorithm? {
        try audio.map { name in try optionValue { try TimePitchAlgorithm(parsing: name) } }
    }

    /// The spectral engine: the option, else phase-gradient.
    func engine() throws -> SpectralEngine { try chosenEngine() ?? .defaultEngine }

    /// The algorithm: the option, else spectral.
    func algorithm() throws -> TimePitchAlgorithm { try chosenAlgorithm() ?? .spectral }
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

    func engine() throws -> SpectralEngine { try algorithms.engine() }
    func algorithm() throws -> TimePitchAlgorithm { try algorithms.algorithm() }

    /// The audio codec the option names; nil without it.
    func chosenCodec() throws -> AudioCodec? {
        guard let name = audioCodec else { return nil }
        guard let codec = AudioCodec(rawValue: name) else {
            throw CommandError("unknown audio codec '\(name)' (--audio-codec); expected \(AudioCodec.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return codec
    }

    /// The audio codec: the option, else AAC.
    func codec() throws -> AudioCodec { try chosenCodec() ?? .aac }
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
            guard let parsed = OutputSettings.Size(parsing: text.lowercased()) else {
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
}

extension ExportOverrides {
    /// What `retime`'s and `export`'s options choose over the edit's output settings; the mode
    /// is each command's.
    init(audio: AudioOptions, output: OutputOptions, video: CFROptions) throws {
        self.init()
        choosesVideo = video.anyVideoOption
        audioAlgorithm = try audio.algorithms.chosenAlgorithm()
        spectralEngine = try audio.algorithms.chosenEngine()
        audioCodec = try audio.chosenCodec()
        audioDepth = try audio.depth()
        gain = try audio.gainDecibels()
        pitch = audio.semitones
        limiter = try audio.limiterOn()
        overwrite = output.overwrite
        strict = output.strict
        verify = output.verify
    }
}
