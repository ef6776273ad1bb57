import SlomoCore
import SlomoScript
import Testing

/// `output.interpolation` in edit scripts.
@Suite struct InterpolationPresetScriptTests {
    @Test func editScriptsReadAndWriteIt() throws {
        let text = """
            slomo: 1
            clips:
              - source: a.mov
                sections:
                  - 2-4x0.1
            output:
              mode: cfr
              fps: 30
              frames: interpolate
              interpolation: quality
            """
        let script = try EditScript(parsing: text)
        #expect(script.output.interpolation == .quality)
        #expect(script.output.frames == .interpolate)
        let yaml = script.yaml(), json = script.json()
        #expect(yaml.contains("interpolation: quality"), "\(yaml)")
        #expect(try EditScript(parsing: yaml) == script)
        #expect(try EditScript(parsing: json) == script)
        #expect(try EditScript(parsing: "slomo: 1\nclips:\n  - source: a.mov\n").output.interpolation == nil)
        print("edit script with interpolation preset:\n\(yaml)")
    }

    @Test func unknownPresetInAScriptListsTheChoices() {
        #expect {
            _ = try EditScript(parsing: "slomo: 1\nclips:\n  - source: a.mov\noutput: {interpolation: smooth}")
        } throws: { error in
            let text = (error as? TimeModelError)?.description ?? "\(error)"
            print("unknown preset in a script: \(text)")
            return text.contains("output.interpolation") && text.contains("fast, quality, draft")
        }
    }
}
