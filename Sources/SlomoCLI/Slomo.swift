import ArgumentParser
import SlomoMedia

/// The `slomo` command: slow motion and retiming for high-frame-rate video.
@main
struct Slomo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "slomo",
        abstract: "Slow motion for high-frame-rate video: inspect, plan, retime, export, editor timelines, stretch audio, capture.",
        discussion: """
            Rates are playback speeds: 0.25 plays four times slower, 2 twice as fast.
            Run `slomo help COMMAND` for each command's options and examples.
            FFmpeg's own messages are hidden; SLOMO_FFMPEG_LOG=error|warning|info|debug shows them.
            """,
        subcommands: [Inspect.self, PlanCommand.self, Retime.self, Export.self, TimelineCommand.self, Stretch.self, Capture.self,
                      Devices.self])

    static func main() async {
        FFmpegLog.configureFromEnvironment()
        await main(nil)
    }
}
