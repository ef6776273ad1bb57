import ArgumentParser
import Foundation
import SlomoCore
import SlomoExport
import SlomoMedia

/// `slomo stretch INPUT --rate R -o OUTPUT`: change the speed of audio with a time-pitch
/// algorithm.
struct Stretch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Change the speed of an audio file (or a movie's first audio track), keeping its pitch or not.",
        discussion: """
            Every algorithm gives exactly round(N / rate) frames for N input frames at a constant rate, \
            and sections may use different algorithms (:audio=). The output format follows the \
            extension: .wav (16-bit PCM), .flac, .m4a (AAC, or --audio-codec alac).

            Algorithms (--audio):
              spectral     slomo's phase-gradient phase vocoder: best, pitch kept, attacks on
                           their frame, rates 1/32-32 (default; --spectral-engine rubberband
                           for Rubber Band R3)
              time-domain  SoundTouch WSOLA: cheap, good for voice, best within 0.5-2
              low-latency  fixed-grain splicing, no look-ahead, rates 0.5-2 (snapped)
              varispeed    sinc resampling: pitch follows speed, like tape, rates 1/32-32

            Examples:
              slomo stretch voice.wav --rate 0.5 -o slow.wav
              slomo stretch match.mov --rate 0.25 --audio varispeed -o match-audio.flac
              slomo stretch song.flac --section 30-45x0.5:ramp=1 -o song-slow.flac
              slomo stretch song.flac --rate 0.5 --spectral-engine rubberband -o song-r3.flac
            """)

    @Argument(help: "An audio file, or a movie whose first audio track is stretched.", completion: .file())
    var input: String

    @Option(help: ArgumentHelp("Playback rate for the whole input: 0.5 is half speed (twice as long), 2 double speed.", valueName: "rate"))
    var rate: String?

    @Option(name: .customLong("section"), help: ArgumentHelp("Retime only a part, e.g. 2-4x0.25 (repeatable; instead of --rate).", valueName: "spec"))
    var sections: [String] = []

    @OptionGroup var audioOptions: AudioOptions

    @Option(name: .shortAndLong, help: "Output file: .wav, .flac or .m4a. Default: beside the input, named INPUT-slomo.wav.")
    var output: String?

    @Flag(help: "Replace the output file if it exists.")
    var overwrite = false

    @OptionGroup var progressOptions: ProgressOptions

    func validate() throws {
        switch (rate, sections.isEmpty) {
        case (nil, true): throw ValidationError("Give --rate (e.g. --rate 0.5) or at least one --section.")
        case (.some, false): throw ValidationError("Give either --rate for the whole input or --section for parts, not both.")
        default: break
        }
    }

    func run() throws {
        let algorithm = try audioOptions.algorithm()
        let specs = rate.map { ["0-endx\($0)"] } ?? sections
        let composition = try Composition(retiming: try MediaFile(path: input), sections: specs)
        let target = output ?? URL(fileURLWithPath: input).deletingPathExtension().path + "-slomo.wav"
        let settings = ExportSettings(mode: .passthrough, audioAlgorithm: algorithm, spectralEngine: try audioOptions.engine(),
                                      audioCodec: try audioOptions.codec(), overwrite: overwrite)
        let session = ExportSession(composition: composition, to: target, settings: settings)
        let interrupt = Interrupt { session.cancel() }
        defer { withExtendedLifetime(interrupt) {} }
        let result = try session.run(progress: ProgressPrinter(style: progressOptions.style).callAsFunction)
        if !progressOptions.quiet {
            ExportRunner.printWarnings(result)
            print("\(result.outputPath): \(String(format: "%.3f", result.outputDuration.doubleSeconds)) s of audio, stretched with \(algorithm)")
        }
    }
}
