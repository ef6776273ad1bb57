import ArgumentParser
import Glibc
import SlomoBatch
import SlomoConcurrency
import SlomoCore
import SlomoMedia

/// The `slomo` command: slow motion and retiming for high-frame-rate video.
@main
struct Slomo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "slomo",
        abstract: "Slow motion for high-frame-rate video: inspect, plan, retime, export, editor timelines, stretch audio, capture, batches.",
        discussion: """
            Rates are playback speeds: 0.25 plays four times slower, 2 twice as fast.
            Run `slomo help COMMAND` for each command's options and examples.
            FFmpeg's own messages are hidden; SLOMO_FFMPEG_LOG=error|warning|info|debug shows them.
            Exit status: 0 done, 1 failed, 64 usage (a bad option or value), 130 interrupted (143 on \
            SIGTERM), 3 capture source lost.
            """,
        version: "slomo \(SlomoVersion.current)",
        subcommands: [Inspect.self, Detect.self, PlanCommand.self, Retime.self, Export.self, PlayCommand.self, Still.self, TimelineCommand.self, Stretch.self, Capture.self,
                      Devices.self, Batch.self])

    /// The arguments of the command this process runs (what follows `slomo`): the command
    /// line's, or those a fork server's child was given (`run(_:)`).
    static let arguments = Guarded(Array(CommandLine.arguments.dropFirst()))

    static func main() async {
        let arguments = arguments.read { $0 }
        if arguments == ForkServer.arguments {
            // On the main thread, before anything starts another: returns in each forked child.
            await run(ForkServer.serve(warmingUp: warmUpParsing))
            Glibc.exit(0)
        }
        await run(arguments)
    }

    /// Fills the Swift runtime's caches that parsing a command line needs (a conformance lookup
    /// scans the whole binary the first time: most of a forked `--version`'s 9 ms), in a fork
    /// server before it forks, so that no job repeats it.
    private static func warmUpParsing() {
        func visit(_ command: ParsableCommand.Type) {
            _ = helpMessage(for: command)
            command.configuration.subcommands.forEach(visit)
        }
        visit(Slomo.self)
    }

    /// Runs `slomo arguments…` in this process, as `main` does with the command line's; exits
    /// with the command's status when it fails.
    static func run(_ arguments: [String]) async {
        self.arguments.withLock { $0 = arguments }
        JobLibraries.openInBackground(librariesCalledFirst(by: arguments))
        FFmpegLog.configureFromEnvironment()
        unblockHandledSignals()
        if let problem = Suggestions.unknownCommand(in: arguments) {
            ExitStatus.exit(with: CommandError(problem))
        }
        do {
            var command: ParsableCommand
            do {
                command = try parseAsRoot(arguments)
            } catch {
                // A mistyped option is what the user should hear about, not what it left missing.
                throw Suggestions.unknownOption(in: arguments).map(CommandError.init) ?? error
            }
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            ExitStatus.exit(with: error)
        }
    }

    /// The libraries a command calls as soon as it starts, opened while its command line is
    /// parsed: a stretch converts its samples (libavutil, libswresample) and, by default,
    /// transforms them (FFTW), and opening them takes as long as parsing (a 1 s stretch is
    /// about 40 ms in all). Other commands open theirs on first use.
    private static func librariesCalledFirst(by arguments: [String]) -> [JobLibraries.Library] {
        arguments.first == Stretch.configuration.commandName ? [.avutil, .swresample, .fftw] : []
    }

    /// Unblocks the signals slomo handles (Ctrl-C, SIGTERM, window resizes, capture's pause and
    /// resume): a blocked mask is inherited across exec, and some parents block them (Swift
    /// Testing's threads block SIGWINCH), which would leave the progress line at its first width.
    /// Done on the main thread first, so every thread started later inherits it.
    private static func unblockHandledSignals() {
        var handled = sigset_t()
        sigemptyset(&handled)
        for number in [SIGINT, SIGTERM, SIGWINCH, SIGUSR1, SIGUSR2] { sigaddset(&handled, number) }
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    }
}
