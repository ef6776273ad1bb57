import ArgumentParser
import SlomoCore

/// "Did you mean …?" for a mistyped command or option: ArgumentParser would otherwise report
/// what the command misses (`--section`) instead of what the user typed (`--secton`), or call
/// an unknown command "unexpected arguments".
enum Suggestions {
    /// The usage error for an unknown command in `arguments` (without the program name), or
    /// for `slomo help NAME` of one, naming the nearest known command; nil when it is known.
    /// Cheap: checked before parsing, since `help NAME` would parse.
    static func unknownCommand(in arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let names = commandNames
        // `slomo help NAME` for a command that does not exist is as wrong as `slomo NAME`.
        let asked = first == "help" ? arguments.dropFirst().first.flatMap { $0.hasPrefix("-") ? nil : $0 } : first
        guard let asked, !names.contains(asked) else { return nil }
        return "unknown command '\(asked)'" + hint(nearest(asked, in: names)) + "; the commands are " + names.joined(separator: ", ")
    }

    /// The usage error for the first unknown `--option` in `arguments`, naming the nearest
    /// option of its command; nil when all are known. It reads the command's whole help (a
    /// few milliseconds), so it is asked only once parsing has failed.
    static func unknownOption(in arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"),
              var command = Slomo.configuration.subcommands.first(where: { name(of: $0) == first }) else { return nil }
        var rest = arguments.dropFirst()
        // A command group (`batch`): its subcommand's options are the ones to know.
        if let second = rest.first, let sub = command.configuration.subcommands.first(where: { $0._commandName == second }) {
            command = sub
            rest = rest.dropFirst()
        }
        // The one-line `batch plan` passes every option it does not know to its jobs' command,
        // whose dry runs name any mistake.
        if command == BatchPlanCommand.self { return nil }
        let known = Set(longOptions(of: command))
        for argument in rest {
            if argument == "--" { break }
            guard argument.hasPrefix("--") else { continue }
            let name = String(argument.prefix { $0 != "=" })
            if !known.contains(name) {
                return "unknown option '\(name)' for '\(first)'" + hint(nearest(name, in: Array(known)))
                    + "; see 'slomo \(first) --help'"
            }
        }
        return nil
    }

    private static var commandNames: [String] {
        Slomo.configuration.subcommands.map(name(of:)) + ["help"]
    }

    private static func name(of command: ParsableCommand.Type) -> String {
        command.configuration.commandName ?? command._commandName
    }

    /// Every `--long` name the command's help mentions, hidden options included, with `--help`.
    private static func longOptions(of command: ParsableCommand.Type) -> [String] {
        let help = Slomo.helpMessage(for: command, includeHidden: true)
        return help.matches(of: /--[a-z][a-z0-9-]*/).map { String($0.output) } + ["--help"]
    }

    private static func hint(_ name: String?) -> String {
        name.map { " (did you mean '\($0)'?)" } ?? ""
    }

    private static func nearest(_ word: String, in candidates: [String]) -> String? {
        NearestName.nearest(word, in: candidates)
    }
}
