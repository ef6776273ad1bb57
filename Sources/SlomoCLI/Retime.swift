import ArgumentParser
import Foundation
import SlomoCore
import SlomoScript
import SlomoExport
import SlomoInterchange
import SlomoMedia

/// `slomo retime INPUT --section SPEC… -o OUTPUT`: slow motion without re-encoding the video.
struct Retime: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retime",
        abstract: "Slow down or speed up sections of a clip: video copied, audio stretched, in sync.",
        discussion: """
            Passthrough (the default) copies every video packet bit for bit and rewrites only its \
            timestamps through the time map, so a 240 fps section played at 0.25x becomes 60 fps \
            of real motion with no generation loss. Each audio track is rendered through the same \
            map with a time-pitch algorithm and re-encoded.

            Sections (repeat --section; grammar in docs/sections.md):
              2-4x0.25                 source seconds 2 to 4 at quarter speed
              00:00:02.000-00:00:04.5x1/4
              f480-f960x0.25           source frames 480 to 960
              8-endx2                  from 8 s to the end at double speed
              2-4x0.25:ramp=0.3        ease in and out over 0.3 s of source
              2-4x0.25:audio=varispeed one section with its own audio algorithm

            Audio algorithms (--audio): spectral (slomo's phase vocoder, best, default; \
            --spectral-engine rubberband for Rubber Band R3), time-domain \
            (WSOLA, cheap, good for voice), low-latency (splicing, rates 0.5-2), varispeed \
            (pitch follows speed, like tape).

            With --cfr FPS the video is rendered at a constant frame rate instead and re-encoded \
            (H.264 by default): each output frame shows, blends or interpolates the source frames \
            the time map puts there. The video options are those of `slomo export` (docs/cfr.md).

            Examples:
              slomo retime match.mov --section 2-4x0.25 -o match-slow.mov
              slomo retime match.mov --section 2-4x0.25 --cfr 30 -o match-30.mp4
              slomo retime match.mov --section 1-2x0.5 --section 5-7x0.25 --audio varispeed
              slomo retime match.mov --section 2-4x0.25 --dry-run
              slomo retime match.mov --section 2-4x0.25 --timeline match.otio
              slomo retime from-resolve.otio -o edit.mov
              slomo retime edit.yaml -o edit.mov      # an edit script (passthrough)
              slomo retime IMG_0001.MOV --phone

            \(ExitStatus.help)
            """)

    @OptionGroup var source: EditInputOptions

    @OptionGroup var outputOptions: OutputOptions

    @OptionGroup var audioOptions: AudioOptions

    @OptionGroup(title: "Constant frame rate (re-encode)") var cfrOptions: CFROptions

    @Option(name: .customLong("save-script"), help: ArgumentHelp("Also write the equivalent edit script (.yaml or .json) for `slomo export`.", valueName: "file"),
            completion: .file(extensions: ["yaml", "yml", "json"]))
    var saveScript: String?

    @OptionGroup var progressOptions: ProgressOptions

    func validate() throws {
        switch EditInput.kind(of: source.input) {
        case .script, .timeline:
            if saveScript != nil { throw ValidationError("--save-script needs a movie with --section options as input.") }
        case .movie:
            guard !source.sections.isEmpty || !source.freezes.isEmpty || source.phoneMode != nil else {
                throw ValidationError("Give at least one --section or --freeze, e.g. --section 2-4x0.25 or --freeze 3:2 "
                                      + "(or --phone for a phone's slow motion).")
            }
        }
    }

    func run() throws {
        try progressOptions.reporting(retime)
    }

    private func retime(reportingTo printer: ProgressPrinter) throws {
        let edit = try source.edit(reportingTo: printer)
        let frameRate = try cfrOptions.frameRate(for: edit.composition)
        if frameRate == nil && (cfrOptions.shutter != nil || cfrOptions.shutterSamples != nil) {
            throw CommandError("--shutter blurs frames as they are rendered: add --cfr 30 (passthrough copies the pictures as they are)")
        }
        if frameRate == nil && cfrOptions.anyVideoOption {
            throw CommandError("--codec, --frames, --size and the other video options need --cfr FPS (passthrough copies the video)")
        }
        if source.kind == .movie, try MediaFile(path: source.input).videoStream == nil {
            throw CommandError("\(source.input) has no video: change the speed of its sound with "
                               + "`slomo stretch \(source.input) --section …` (retime keeps a movie's video)")
        }
        // Passthrough unless --cfr: an edit script's output settings are the defaults the
        // options override, as in export.
        var overrides = try ExportOverrides(audio: audioOptions, output: outputOptions, video: cfrOptions)
        overrides.mode = frameRate.map { .constantFrameRate($0) } ?? .passthrough
        let (settings, video) = try source.exportSettings(of: edit, overriding: overrides, video: cfrOptions)
        let composition = edit.composition
        let target = outputOptions.output ?? ExportSession.defaultOutputPath(
            for: source.input, mode: settings.mode, codec: video.codec, inputIsEditDocument: source.kind != .movie)
        if outputOptions.dryRun {
            return try ExportRunner.dryRun(composition, to: target, settings: settings, video: video,
                                           timeline: outputOptions.timeline)
        }
        if let saveScript {
            try OutputPath.checkWritable(saveScript, overwrite: outputOptions.overwrite)
            guard source.phoneMode == nil else { throw CommandError("--save-script takes --section options, not --phone") }
            let script = try EditScript(retiming: source.input, sections: source.sections, freezes: source.freezes,
                                        settings: settings, video: video)
            try script.relativized(toFolderOf: saveScript).write(to: saveScript)
        }
        try ExportRunner.run(composition, to: target, settings: settings, video: video, progress: printer,
                             timeline: outputOptions.timeline)
    }
}
