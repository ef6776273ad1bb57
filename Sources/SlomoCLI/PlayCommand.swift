import ArgumentParser
import Foundation
import SlomoAudio
import SlomoCore
import SlomoPlayback

/// `slomo play INPUT [--section …]… [--rate R] [--audio ALG]`: watch and hear a retime before
/// exporting it.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a movie, a retime or an edit script at any rate, in a window with sound.",
        discussion: """
            What plays is what `retime` and `export` would write: the same time map and the same \
            audio renderer, with --rate on top (0.5 = half speed). The sound device's clock is the \
            master; pictures show when their time comes, and late ones are dropped and counted \
            (said at exit). Without sound (--no-audio, no audio track) a monotonic clock drives \
            the pictures; without a display, use --no-video. How the clock works: docs/playback.md.

            Keys (as in mpv):
            \(PlayerCommand.keyHelp.map { "  \($0.key.padding(toLength: 10, withPad: " ", startingAt: 0)) \($0.action)" }.joined(separator: "\n"))

            Examples:
              slomo play match.mov
              slomo play match.mov --section 2-4x0.25 --audio time-domain
              slomo play edit.yaml --rate 0.5 --start 12.5 --loop
              slomo play match.mov --rate -1 --start 8
              slomo play interview.mov --rate 0.5 --pitch -2
              slomo play phone-clip.mov --phone --no-video

            \(ExitStatus.help)
            """)

    @OptionGroup var source: EditInputOptions

    @Option(parsing: .unconditional,    // `--rate -1` reads -1 as the value
            help: ArgumentHelp("Playback rate on top of the sections: 0.5 = half speed, 2 = twice as fast, -1 backwards "
                               + "(from --start, else from the end; the r key turns round while playing).",
                               valueName: "rate"))
    var rate: String = "1"

    @OptionGroup var audioOptions: AudioAlgorithmOptions

    @Option(parsing: .unconditional,    // `--pitch -3` reads -3 as the value
            help: ArgumentHelp("Shift the sound's pitch by this many semitones, the speed kept, -24 to 24 (default 0; "
                               + "the - and = keys change it while playing); not with varispeed.", valueName: "semitones"))
    var pitch: Double?

    @Option(help: ArgumentHelp("Where to start, in output time: seconds, 1:02.5 or a timecode.", valueName: "time"))
    var start: String?

    @Flag(help: "Start again at the beginning at the end.")
    var loop = false

    @Flag(name: .customLong("no-video"), help: "No window: play the sound only (no display needed).")
    var noVideo = false

    @Flag(name: .customLong("no-audio"), help: "No sound: the pictures follow a monotonic clock.")
    var noAudio = false

    @Flag(help: "Open the window fullscreen.")
    var fullscreen = false

    @Flag(help: "Start paused on the first picture.")
    var paused = false

    @Option(name: .customLong("presentation-log"),
            help: ArgumentHelp("Write a JSON line for every picture shown (source and output time, wall-clock time, drops).",
                               valueName: "file"))
    var presentationLog: String?

    func validate() throws {
        if noVideo && noAudio { throw ValidationError("--no-video and --no-audio together leave nothing to play.") }
        if let pitch, !(abs(pitch) <= PitchShift.maximumSemitones) {
            throw ValidationError("--pitch \(String(format: "%g", pitch)): slomo shifts the pitch by -24 to 24 semitones.")
        }
    }

    func run() throws {
        let (playRate, backwards) = try optionValue { try Rate.parsingDirected(rate) }
        let algorithm = try audioOptions.algorithm()
        let engine = try audioOptions.engine()
        if let pitch, pitch != 0, algorithm == .varispeed {
            throw CommandError("--pitch \(String(format: "%g", pitch)): varispeed's pitch follows its rate, so it cannot be shifted on its own; "
                               + "shift it with spectral, time-domain or low-latency audio")
        }
        let edit = try source.edit()
        let item = try PlayerItem(edit.composition)
        var options = Player.Options()
        options.video = !noVideo
        options.audio = !noAudio
        options.fullscreen = fullscreen
        options.loop = loop
        options.startsPaused = paused
        options.spectralEngine = engine
        options.presentationLog = presentationLog
        options.title = "slomo — \((source.input as NSString).lastPathComponent)"
        options.reversed = backwards
        if let start {
            options.start = try optionValue { try MediaTime(parsing: start, frameRate: item.composition.clips.first?.frameRate) }
        } else if backwards {
            options.start = item.duration
        }
        let player = Player(item: item, rate: playRate, audioAlgorithm: algorithm, pitch: pitch ?? 0, options: options) { event in
            if case .notice(let text) = event { FileHandle.standardError.write(Data("slomo play: \(text)\n".utf8)) }
        }
        let interrupt = Interrupt { player.quit() }
        defer { withExtendedLifetime(interrupt) {} }
        let statistics: PlaybackStatistics
        do {
            statistics = try player.run()
        } catch let error as PlaybackError where error.kind == .noDisplay {
            throw PlaybackError(.noDisplay, "no display to open a window on (\(error.problem)); set DISPLAY, or play the sound only with --no-video")
        }
        var summary = "\(statistics.shown) pictures shown, \(statistics.dropped) dropped late"
        if statistics.skipped > 0 { summary += ", \(statistics.skipped) between screen refreshes" }
        if statistics.underruns > 0 { summary += ", \(statistics.underruns) audio underruns" }
        FileHandle.standardError.write(Data("slomo play: \(summary)\n".utf8))
        if let exitCode = interrupt.exitCode { throw exitCode }
    }
}
