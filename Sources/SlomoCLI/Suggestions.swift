import ArgumentParser

/// "Did you mean …?" for a mistyped command or option, found before parsing: ArgumentParser
/// would otherwise report what the command misses (`--section`) instead of what the user
/// typed (`--secton`), or call an unknown command "unexpected arguments".
enum Suggestions {
    /// The usage error for the first unknown command or option in `arguments` (without the
    /// program name), naming the nearest known one when there is one; nil when all are known.
    static func problem(in arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let commands = Slomo.configuration.subcommands
        let names = commands.compactMap { $0.configuration.commandName ?? $0._commandName } + ["help"]
        // `slomo help NAME` for a command that does not exist is as wrong as `slomo NAME`.
        if first == "help", let asked = arguments.dropFirst().first, !asked.hasPrefix("-"), !names.contains(asked) {
            return "unknown command '\(asked)'" + hint(nearest(asked, in: names)) + "; the commands are " + names.joined(separator: ", ")
        }
        guard var command = commands.first(where: { ($0.configuration.commandName ?? $0._commandName) == first }) else {
            guard !names.contains(first) else { return nil }
            return "unknown command '\(first)'" + hint(nearest(first, in: names)) + "; the commands are "
                + names.joined(separator: ", ")
        }
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

    /// Every `--long` name the command's help mentions, hidden options included, with `--help`.
    private static func longOptions(of command: ParsableCommand.Type) -> [String] {
        let help = Slomo.helpMessage(for: command, includeHidden: true)
        return help.matches(of: /--[a-z][a-z0-9-]*/).map { String($0.output) } + ["--help"]
    }

    private static func hint(_ name: String?) -> String {
        name.map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// The candidate closest to `word` by edit distance, if it is close (at most a third of
    /// the word's letters, and at most 3).
    static func nearest(_ word: String, in candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(word, $0)) }.min { $0.1 < $1.1 }
        guard let (best, score) = scored, score <= min(3, max(1, word.count / 3)) else { return nil }
        return best
    }

    /// Levenshtein distance, with a swap of neighbours counting once (`retiem` → `retime`).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
