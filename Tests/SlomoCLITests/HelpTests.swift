import Foundation
import SlomoTestSupport
import Testing

/// Issue 16, item 11: every command's help teaches with copy-pasteable examples that an
/// 80-column terminal shows whole, states each default once, and gives the exit statuses.
@Suite struct HelpTests {
    static let commands = ["inspect", "plan", "retime", "export", "timeline", "stretch", "capture", "devices"]

    static func help(_ command: String, columns: Int) throws -> String {
        let result = try Slomo.run([command, "--help"], environment: ["COLUMNS": "\(columns)"])
        #expect(result.status == 0)
        return result.standardOutput
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
