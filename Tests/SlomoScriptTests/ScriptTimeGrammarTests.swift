import Testing
import SlomoCore
import SlomoScript

/// Edit scripts read times in the one time grammar of sections and durations (TimeGrammarTests).
@Suite struct ScriptTimeGrammarTests {
    @Test func editScriptsReadTheSameGrammar() throws {
        let script = try EditScript(parsing: """
            slomo: 1
            clips:
              - source: a.mov
                start: 1500ms
                end: "00:00:04:00"
                sections: ["2s-3sx0.5:ramp=250ms"]
            """)
        let composition = try script.composition(sources: [EditScript.SourceInfo(duration: .seconds(10), frameRate: Rational(30))])
        #expect(composition.clips[0].range == TimeRange(start: MediaTime(seconds: Rational(3, 2)), end: .seconds(4)))
        #expect(composition.clips[0].sections[0].rampIn == MediaTime(seconds: Rational(1, 4)))
    }
}
