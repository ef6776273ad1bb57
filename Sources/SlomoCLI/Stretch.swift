import ArgumentParser
import Foundation
import SlomoCore
import SlomoExport
import SlomoMedia

/// `slomo stretch INPUT --rate R -o OUTPUT`: change the speed of audio with a time-pitch
/// algorithm.
struct Stretch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stretch",
        abstract: "Change the speed of an audio file (or a movie's first audio track), keeping its pitch or not.",
        discussion: """
            Every algorithm gives exactly round(N / rate) frames for N input frames at a constant rate, \
            and sections may use different algorithms (:audio=).

            The output's extension picks the format and its codec (the first one listed); \
            --audio-codec picks another codec the format holds:
            \(formatTable)
            Opus encodes 48, 24, 16, 12 or 8 kHz only: other rates are resampled (44.1 kHz to 48 kHz) \
            and a warning says so; MP3 goes up to 48 kHz. .mov, .mp4 and .mkv hold audio alone for \
            an input without video (keeping a movie's video is `slomo retime`). Without -o the output \
            is INPUT-slomo.wav, or has the extension of --audio-codec (aac: .m4a, vorbis: .ogg).

            Algorithms (--audio):
              spectral     slomo's phase-gradient phase vocoder: best, pitch kept,
                           attacks on their frame, rates 1/32-32 (default;
                           --spectral-engine rubberband for Rubber Band R3)
              time-domain  slomo's WSOLA: cheap, good for voice, best within 0.5-2
              low-latency  fixed-grain splicing, no look-ahead, rates 0.5-2 (snapped)
              varispeed    sinc resampling: pitch follows speed, like tape, rates 1/32-32

            Examples:
              slomo stretch voice.wav --rate 0.5 -o slow.wav
              slomo stretch voice.wav --rate 0.5 -o slow.mp3
              slomo stretch voice.wav --rate 0.5 -o slow.opus
              slomo stretch song.flac --rate 0.8 --audio-codec alac -o song-slow.m4a
              slomo stretch match.mov --rate 0.25 --audio varispeed -o match-audio.flac
              slomo stretch song.flac --section 30-45x0.5:ramp=1 -o song-slow.ogg
              slomo stretch song.flac --rate 0.5 --spectral-engine rubberband -o r3.flac
              slomo stretch voice.wav --rate 0.5 -o slow.wav --dry-run

            \(ExitStatus.help)
            """)

    /// One line a format: `  .m4a   aac, alac`.
    private static var formatTable: String {
        AudioOutputFormat.all.map { format in
            let name = "." + format.fileExtension
            return "  " + name.padding(toLength: 7, withPad: " ", startingAt: 0) + format.codecs.map(\.rawValue).joined(separator: ", ")
        }.joined(separator: "\n")
    }

    @Argument(help: "An audio file, or a movie whose first audio track is stretched.", completion: .file())
    var input: String

    @Option(parsing: .unconditional,    // `--rate -1` reads -1 as the value
            help: ArgumentHelp("Playback rate for the whole input: 0.5 is half speed (twice as long), 2 double speed, -1 backwards.", valueName: "rate"))
    var rate: String?

    @Option(name: .customLong("section"), help: ArgumentHelp("Retime only a part, e.g. 2-4x0.25 (repeatable; instead of --rate).", valueName: "spec"))
    var sections: [String] = []

    @OptionGroup var audioOptions: AudioOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("""
        Output file; its extension picks the format: \(AudioOutputFormat.all.map { "." + $0.fileExtension }.joined(separator: ", ")). \
        Default: beside the input, named INPUT-slomo.wav (.m4a for --audio-codec aac, and so on).
        """, valueName: "file"), completion: .file(extensions: AudioOutputFormat.all.map(\.fileExtension)))
    var output: String?

    @Flag(help: "Replace the output file if it exists.")
    var overwrite = false

    @Flag(name: .customLong("dry-run"), help: "Check everything the stretch would (input, sections, output and codec), say what would be written, and write nothing.")
    var dryRun = false

    @OptionGroup var progressOptions: ProgressOptions

    func validate() throws {
        switch (rate, sections.isEmpty) {
        case (nil, true): throw ValidationError("Give --rate (e.g. --rate 0.5) or at least one --section.")
        case (.some, false): throw ValidationError("Give either --rate for the whole input or --section for parts, not both.")
        default: break
        }
        _ = try target()
    }

    /// The output path and its codec, as the library's format table has them; an extension
    /// it does not know or a codec the format cannot hold is a usage error.
    private func target() throws -> (path: String, codec: AudioCodec) {
        let requested = try audioOptions.chosenCodec()
        let path = output ?? URL(fileURLWithPath: input).deletingPathExtension().path + "-slomo."
            + AudioOutputFormat.defaultExtension(for: requested)
        do {
            return (path, try AudioOutputFormat.of(path).codec(requested, for: path))
        } catch let error as ExportError {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        try progressOptions.reporting(stretch)
    }

    private func stretch(reportingTo printer: ProgressPrinter) throws {
        let algorithm = try audioOptions.algorithm()
        let specs = try rate.map { rate in
            // The whole input as one section; its errors are about --rate, which the user typed.
            let spec = "0-endx\(rate)"
            do { _ = try SectionSpec(parsing: spec) } catch let error as TimeModelError { throw CommandError("--rate \(rate): \(error.problem)") }
            return [spec]
        } ?? sections
        let file = try MediaFile(path: input)
        for damage in file.damageWarnings { printer.warn(damage) }
        let (target, codec) = try target()
        if file.videoStream != nil, AudioOutputFormat(path: target)?.isMovie == true {
            throw ValidationError("\(target): stretch writes audio alone, and \(input) has video; write an audio file "
                                  + "(.wav, .m4a, …) or keep the video with `slomo retime`")
        }
        let composition = try Composition(retiming: file, sections: specs)
        let settings = ExportSettings(mode: .passthrough, audioAlgorithm: algorithm, spectralEngine: try audioOptions.engine(),
                                      audioCodec: codec, audioDepth: try audioOptions.depth(), gain: try audioOptions.gainDecibels(),
                                      pitch: audioOptions.semitones, limiter: try audioOptions.limiterOn(),
                                      overwrite: overwrite)
        let session = ExportSession(composition: composition, to: target, settings: settings)
        if dryRun {
            try session.check()
            return print("would write \(target): \(String(format: "%.3f", try composition.timeMap().outputDuration.doubleSeconds)) s of \(codec) audio, stretched with \(algorithm)")
        }
        let result = try ExportRunner.perform(session, progress: printer)
        if !printer.quiet {
            let seconds = String(format: "%.3f", result.outputDuration.doubleSeconds)
            print("\(result.outputPath): \(seconds) s of \(codec) audio, stretched with \(algorithm)")
        }
    }
}
