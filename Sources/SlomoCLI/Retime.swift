import ArgumentParser
import Foundation
import SlomoCore
import SlomoExport
import SlomoMedia

/// `slomo retime INPUT --section SPEC… -o OUTPUT`: slow motion without re-encoding the video.
struct Retime: ParsableCommand {
    static let configuration = CommandConfiguration(
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

            Audio algorithms (--audio): spectral (Rubber Band R3, best, default), time-domain \
            (SoundTouch, cheap, good for voice), low-latency (splicing, rates 0.5-2), varispeed \
            (pitch follows speed, like tape).

            Examples:
              slomo retime match.mov --section 2-4x0.25 -o match-slow.mov
              slomo retime match.mov --section 1-2x0.5 --section 5-7x0.25 --audio varispeed
              slomo retime match.mov --section 2-4x0.25 --dry-run
            """)

    @Argument(help: "The movie to retime (it is only read).", completion: .file())
    var input: String

    @Option(name: .customLong("section"), help: ArgumentHelp("A section to retime, e.g. 2-4x0.25 (repeatable).", valueName: "spec"))
    var sections: [String] = []

    @Option(name: .shortAndLong, help: "Output movie (.mov or .mp4). Default: INPUT-slomo.EXT beside the input.")
    var output: String?

    @Option(help: ArgumentHelp("Audio algorithm for sections without their own: spectral, time-domain, low-latency, varispeed.", valueName: "name"))
    var audio: String = AudioAlgorithm.spectral.rawValue

    @Option(name: .customLong("audio-codec"), help: ArgumentHelp("Audio codec: aac (default), alac, pcm.", valueName: "codec"))
    var audioCodec: String = AudioCodec.aac.rawValue

    @Flag(help: "Replace the output file if it exists.")
    var overwrite = false

    @Flag(name: .customLong("dry-run"), help: "Print the plan (time map, effective fps, durations) and write nothing.")
    var dryRun = false

    @Option(name: .customLong("save-script"), help: ArgumentHelp("Also write the equivalent edit script (.yaml or .json) for `slomo export`.", valueName: "file"))
    var saveScript: String?

    @OptionGroup var progressOptions: ProgressOptions

    func validate() throws {
        guard !sections.isEmpty else { throw ValidationError("Give at least one --section, e.g. --section 2-4x0.25.") }
        guard AudioCodec(rawValue: audioCodec) != nil else {
            throw ValidationError("Unknown --audio-codec '\(audioCodec)'; expected aac, alac or pcm.")
        }
    }

    func run() throws {
        let algorithm = try AudioAlgorithm(parsing: audio)
        let file = try MediaFile(path: input)
        let composition = try Composition(retiming: file, sections: sections)
        let target = output ?? Self.defaultOutput(for: input)
        if dryRun {
            print(PlanCommand.table(try Plan(composition.timeMap(), defaultAudio: algorithm)))
            print("would write \(target) (passthrough: video copied, audio \(algorithm), \(audioCodec))")
            return
        }
        let settings = ExportSettings(mode: .passthrough, audioAlgorithm: algorithm,
                                      audioCodec: AudioCodec(rawValue: audioCodec)!, overwrite: overwrite)
        if let saveScript {
            try OutputPath.checkWritable(saveScript, overwrite: overwrite)
            try EditScript(retiming: input, sections: sections, settings: settings).write(to: saveScript)
        }
        let session = ExportSession(composition: composition, to: target, settings: settings)
        let interrupt = Interrupt { session.cancel() }
        defer { withExtendedLifetime(interrupt) {} }
        let result = try session.run(progress: ProgressPrinter(style: progressOptions.style).callAsFunction)
        if !progressOptions.quiet {
            print("\(result.outputPath): \(String(format: "%.3f", result.outputDuration.doubleSeconds)) s, \(result.videoFrames) video packets copied, \(result.audioTracks) audio track(s) rendered with \(algorithm)")
        }
    }

    /// `clip.mov` → `clip-slomo.mov`, beside the input.
    static func defaultOutput(for input: String) -> String {
        let url = URL(fileURLWithPath: input)
        let ext = url.pathExtension.isEmpty ? "mov" : url.pathExtension
        return url.deletingPathExtension().path + "-slomo." + ext
    }
}
