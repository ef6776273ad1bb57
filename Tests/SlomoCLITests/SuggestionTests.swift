import Foundation
import SlomoTestSupport
import Testing

/// Issue 16, item 7: a mistyped command or option is named as typed, with the nearest known
/// one, as a usage error; known options, `--opt=value` forms and option-like values pass.
@Suite struct SuggestionTests {
    @Test(arguments: [
        (["retiem", "clip.mov"], "unknown command 'retiem' (did you mean 'retime'?)"),
        (["retime", "clip.mov", "--secton", "1-2x0.5"], "unknown option '--secton' for 'retime' (did you mean '--section'?)"),
        (["plan", "clip.mov", "--jsno"], "unknown option '--jsno' for 'plan' (did you mean '--json'?)"),
        (["export", "clip.mov", "--cfr=30", "--intrpolation=fast"], "(did you mean '--interpolation'?)"),
        (["stretch", "a.wav", "--zzzzzz"], "unknown option '--zzzzzz' for 'stretch'; see 'slomo stretch --help'"),
    ])
    func mistypesAreNamedWithTheNearestName(arguments: [String], message: String) throws {
        let result = try Slomo.run(arguments)
        #expect(result.status == 64)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
    }

    @Test func knownOptionsPass() throws {
        let result = try Slomo.run(["retime", try Fixture.flashAndBeep.path, "--section=2-4x0.25", "--audio", "varispeed",
                                    "--spectral-engine=rubberband", "--dry-run", "--overwrite", "-o", "/tmp/never-written.mov", "--", ])
        #expect(result.status == 0, "\(result.standardError)")
    }
}
