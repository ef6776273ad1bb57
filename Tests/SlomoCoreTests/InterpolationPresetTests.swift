import SlomoCore
import Testing

/// The interpolation presets' names (edit scripts read and write them: SlomoScriptTests).
@Suite struct InterpolationPresetTests {
    @Test func namesAndUnknownValues() throws {
        #expect(InterpolationPreset.allCases.map(\.rawValue) == ["fast", "quality", "draft"])
        #expect(InterpolationPreset.defaultPreset == .fast)
        #expect(try InterpolationPreset(parsing: "quality") == .quality)
        #expect(throws: TimeModelError(.invalidValue, "unknown interpolation preset 'smooth'; expected fast, quality, draft")) {
            _ = try InterpolationPreset(parsing: "smooth")
        }
    }
}
