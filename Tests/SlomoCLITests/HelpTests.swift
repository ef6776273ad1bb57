import Foundation
import SlomoTestSupport
import Testing

/// Issue 16, item 11: every command's help teaches with copy-pasteable examples that an
/// 80-column terminal shows whole, states each default once, and gives the exit statuses.
@Suite struct HelpTests {
    static let commands = ["inspect", "detect", "plan", "retime", "export", "play", "timeline", "stretch", "capture", "devices", "still", "batch"]

    static func help(_ command: String, columns: Int) throws -> String {
        let result = try Slomo.run([command, "--help"], environment: ["COLUMNS": "\(columns)"])
        #expect(result.status == 0)
        return result.standardOutput
    }

    /// Issue 37, defect 9: `slomo help NAME` of a command that does not exist is a usage error.
    @Test func helpOfAnUnknownCommandIsAUsageError() throws {
        let result = try Slomo.run(["help", "retiem"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("unknown command 'retiem'") && result.standardError.contains("did you mean 'retime'"),
                "\(result.standardError)")
        #expect(try Slomo.run(["help", "retime"]).status == 0)
    }

    @Test(arguments: commands)
    func examplesAreWholeAt80Columns(command: String) throws {
        let wide = try Self.help(command, columns: 1000)
        let narrow = Set(try Self.help(command, columns: 80).split(separator: "\n").map(String.init))
        let examples = wide.split(separator: "\n").map(String.init).filter { $0.hasPrefix("  slomo \(command)") }
        #expect(!examples.isEmpty, "\(command) --help has no examples")
        for example in examples {
            #expect(narrow.contains(example), "wrapped at 80 columns: \(example)")
        }
    }

    @Test(arguments: commands)
    func defaultsAreStatedOnceAndExitStatusesGiven(command: String) throws {
        let wide = try Self.help(command, columns: 1000)
        for line in wide.split(separator: "\n") where line.trimmingCharacters(in: .whitespaces).hasPrefix("-") {
            #expect(line.ranges(of: "default").count <= 1, "default stated twice: \(line)")
            #expect(!line.contains(/\(default: \d+\.0\)/), "a whole number printed as a decimal: \(line)")
        }
        #expect(wide.contains("Exit status: 0"), "\(command) --help does not give the exit statuses")
    }
}

/// `scripts/install`, the man page and the completions (issue 16): installed into a fresh
/// prefix from the built binary, the man page renders and names every option, and bash
/// completes option values and file names.
@Suite struct InstallTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func installsBinaryManPageAndCompletions() throws {
        let prefix = try FixtureCache.shared.scratchFolder("install-prefix")
        let install = try runCommand(Self.repository.appendingPathComponent("scripts/install").path,
                                     ["--binary", try Slomo.executable, prefix.path])
        #expect(install.status == 0, "\(install.standardError)")
        let version = try runCommand(prefix.appendingPathComponent("bin/slomo").path, ["--version"])
        #expect(version.standardOutput.hasPrefix("slomo "))
        // Issue 37, defect 9: the documents the help and the man page name are installed too.
        for file in ["share/man/man1/slomo.1", "share/bash-completion/completions/slomo", "share/zsh/site-functions/_slomo",
                     "share/fish/vendor_completions.d/slomo.fish", "share/doc/slomo/sections.md", "share/doc/slomo/batch.md"] {
            #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "\(file) missing")
        }
        let rendered = try runCommand("man", ["-l", prefix.appendingPathComponent("share/man/man1/slomo.1").path],
                                      environment: ["MANPAGER": "cat", "MANWIDTH": "100"])
        #expect(rendered.status == 0 && rendered.standardOutput.contains("slomo"), "\(rendered.standardError)")

        // What bash offers after `slomo retime clip.mov --audio ` and `--codec `, and for a file.
        let completion = prefix.appendingPathComponent("share/bash-completion/completions/slomo").path
        func complete(_ words: [String]) throws -> [String] {
            // As bash's `complete -F` calls it: the command, the word being completed, the one before.
            let line = words.map { "'\($0)'" }.joined(separator: " ")
            let script = "source '\(completion)'; COMP_WORDS=(\(line)); COMP_CWORD=\(words.count - 1); "
                + "COMP_LINE=\"${COMP_WORDS[*]}\"; COMP_POINT=${#COMP_LINE}; cd '\(prefix.path)'; "
                + "_slomo slomo '\(words[words.count - 1])' '\(words[words.count - 2])'; printf '%s\\n' \"${COMPREPLY[@]}\""
            return try runCommand("bash", ["-c", script]).standardOutput.split(separator: "\n").map(String.init).sorted()
        }
        #expect(try complete(["slomo", "retime", "clip.mov", "--audio", ""]) == ["low-latency", "spectral", "time-domain", "varispeed"])
        #expect(try complete(["slomo", "export", "clip.mov", "--codec", ""]) == ["ffv1", "h264", "hevc", "prores"])
        #expect(try complete(["slomo", "export", "clip.mov", "--frames", "in"]) == ["interpolate"])
        #expect(try complete(["slomo", "ret"]) == ["retime"])
        #expect(try complete(["slomo", "inspect", "bi"]) == ["bin"], "file names complete")
    }

    /// docs/slomo.1 comes from `scripts/man`; every option a command's help shows must be in it,
    /// so that a new option without a regenerated page fails here.
    @Test(arguments: HelpTests.commands)
    func manPageNamesEveryOption(command: String) throws {
        let page = try String(contentsOf: Self.repository.appendingPathComponent("docs/slomo.1"), encoding: .utf8)
        let help = try HelpTests.help(command, columns: 1000)
        let options = Set(help.split(separator: "\n").filter { $0.hasPrefix("  -") }
            .flatMap { $0.matches(of: /--[a-z][a-z0-9-]*/).map { String($0.output) } })
        for option in options where option != "--help" && option != "--version" && !option.hasPrefix("--no-") {
            let name = String(option.dropFirst(2))
            #expect(page.contains("Fl -\(name)") || page.contains(", -\(name)"), "docs/slomo.1 lacks \(command) \(option): run scripts/man")
        }
    }
}
