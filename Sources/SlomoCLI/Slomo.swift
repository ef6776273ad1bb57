import ArgumentParser

/// The `slomo` command: slow motion and retiming for high-frame-rate video.
@main
struct Slomo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "slomo",
        abstract: "Slow motion for high-frame-rate video: inspect, plan, retime, export, stretch audio, capture.",
        discussion: """
            Rates are playback speeds: 0.25 plays four times slower, 2 twice as fast.
            Run `slomo help COMMAND` for each command's options and examples.
            """,
        subcommands: [Inspect.self, PlanCommand.self, Retime.self, Export.self, Stretch.self, Capture.self, Devices.self])
}
