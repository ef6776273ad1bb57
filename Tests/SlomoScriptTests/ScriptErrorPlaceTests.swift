import Foundation
import SlomoCore
import SlomoScript
import Testing

/// An edit script's errors name the field that failed by its path in the document
/// (`clips[1].sections[0].rate`), and the document's lines map every path to the line it is on,
/// so a front end can show both (batch manifests do).
@Suite struct ScriptErrorPlaceTests {
    @Test(arguments: [
        ("slomo: 3\nclips: []", "slomo", 1),
        ("slomo: 1\nclips:\n  - start: 1", "clips[0]", 3),
        ("slomo: 1\nclips:\n  - source: a.mov\n    sections:\n      - {start: 1, end: 2, rate: fast}", "clips[0].sections[0].rate", 5),
        ("slomo: 1\nclips:\n  - source: a.mov\n  - source: b.mov\n    sections:\n      - 2-4x0.5\n      - start: 5\n        end: 6\n"
            + "        rate: 2\n        speed: 2", "clips[1].sections[1].speed", 10),
        ("slomo: 1\nclips:\n  - source: a.mov\n    sections:\n      - 2-4x0.5\n      - 3-5x0.5", "clips[0].sections[1]", 6),
        ("slomo: 1\nclips:\n  - source: a.mov\n    freeze:\n      - {at: 1, for: -2}", "clips[0].freeze[0].for", 5),
        ("slomo: 1\nclips:\n  - source: a.mov\noutput:\n  mode: cfr\n  size: 1280", "output.size", 6),
        ("slomo: 1\nclips:\n  - source: a.mov\noutput:\n  audio:\n    algorithm: spectral\n    bitrate: 128", "output.audio.bitrate", 7),
        ("{\"slomo\": 1,\n \"clips\": [\n  {\"source\": \"a.mov\",\n   \"sections\": [{\"start\": 1, \"end\": 2, \"rate\": \"x\"}]}]}",
         "clips[0].sections[0].rate", 4),
    ])
    func errorsNameTheFieldAndItsLine(text: String, path: String, line: Int) throws {
        let error = #expect(throws: TimeModelError.self) { try EditScript(parsing: text) }
        #expect(error?.subject == path, "\(String(describing: error))")
        #expect(try DocumentNode(parsing: text).lines()[path] == line)
    }

    /// A key's line where its value (a list, a mapping) starts on a later one; an element's own
    /// line; the root's line 1.
    @Test func everyPathHasItsLine() throws {
        let text = """
            slomo: 1
            clips:
              - source: a.mov
                sections:
                  - 2-4x0.5
                  - start: 5
                    end: 6
                    rate: 2
            output:
              fps: 30
            """
        #expect(try DocumentNode(parsing: text).lines() == [
            "": 1, "slomo": 1, "clips": 2, "clips[0]": 3, "clips[0].source": 3, "clips[0].sections": 4,
            "clips[0].sections[0]": 5, "clips[0].sections[1]": 6, "clips[0].sections[1].start": 6,
            "clips[0].sections[1].end": 7, "clips[0].sections[1].rate": 8, "output": 9, "output.fps": 10,
        ])
    }

    /// A script read from a file names the file and the line before the path
    /// (`edit.yaml:4: clips[0]…`), as batch manifests do.
    @Test func aFilesErrorsNameTheFileAndLineFirst() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slomo-script-place-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/edit.yaml"
        try "slomo: 1\nclips:\n  - source: a.mov\n    sections: [{start: 1, end: 2, rate: 40}]\n".write(toFile: path, atomically: true, encoding: .utf8)
        var outOfRange = TimeModelError(.rateOutOfRange, "rate 40 is outside the allowed 1/32 … 32", subject: "\(path):4: clips[0].sections[0].rate")
        outOfRange.line = 4
        #expect(throws: outOfRange) { try EditScript(contentsOf: path, checkSources: false) }
        // The line of the place the error names, or of the nearest place around it that has one.
        try "slomo: 1\nclips:\n  - source: a.mov\n  - source: b.mov\n    sections:\n      - 2-4x0.5\n      - 3-5x0.5\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let overlap = #expect(throws: TimeModelError.self) { try EditScript(contentsOf: path, checkSources: false) }
        #expect(overlap?.subject?.hasPrefix("\(path):7: clips[1].sections[1]") == true, "\(String(describing: overlap))")
        #expect(overlap?.line == 7)
        try "slomo: 1\nclips:\n  - source: a.mov\n    start: 1\n    start: 2\n".write(toFile: path, atomically: true, encoding: .utf8)
        let twice = #expect(throws: TimeModelError.self) { try EditScript(contentsOf: path, checkSources: false) }
        #expect(twice?.subject == "\(path):4" && twice?.problem.contains("given twice") == true, "\(String(describing: twice))")
        try Data([0x73, 0x6c, 0xff, 0xfe]).write(to: URL(fileURLWithPath: folder + "/bad.json"))
        #expect(throws: TimeModelError(.unparseable, "the file is not UTF-8 text", subject: folder + "/bad.json")) {
            try EditScript(contentsOf: folder + "/bad.json")
        }
    }
}
