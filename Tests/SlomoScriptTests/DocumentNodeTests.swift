import SlomoCore
import SlomoScript
import Testing

/// The typed reading of a YAML or JSON document under edit scripts and batch manifests: each
/// error names the path of the node and says what was expected and what was found.
@Suite struct DocumentNodeTests {
    /// The node at `key` of a one-key document.
    static func value(_ yaml: String) throws -> DocumentNode {
        try #require(try DocumentNode(parsing: "key: \(yaml)").mapping(allowed: ["key"])["key"])
    }

    @Test(arguments: [
        ("{a: 1}", "a mapping"), ("~", "nothing"), ("null", "nothing"), ("true", "a boolean (true)"),
        ("false", "a boolean (false)"), ("3", "3"), ("2.5", "2.5"), ("fast", "the text 'fast'"), ("\"3\"", "the text '3'"),
    ])
    func wrongTypesSayWhatWasFound(yaml: String, found: String) throws {
        #expect(throws: TimeModelError(.wrongType, "expected a list, found \(found)", subject: "key")) {
            _ = try Self.value(yaml).sequence()
        }
    }

    @Test func textNumbersAndBooleans() throws {
        #expect(try Self.value("3").integer() == 3)
        #expect(try Self.value("\"3\"").string("a name") == "3")
        #expect(try Self.value("3").text("a number") == "3")
        #expect(try Self.value("true").boolean == true)
        #expect(try Self.value("\"true\"").boolean == nil)
        #expect(throws: TimeModelError(.wrongType, "expected an integer, found 1.5", subject: "key")) { _ = try Self.value("1.5").integer() }
        #expect(throws: TimeModelError(.wrongType, "expected a name, found 3", subject: "key")) { _ = try Self.value("3").string("a name") }
        #expect(throws: TimeModelError(.wrongType, "expected a number, found nothing", subject: "key")) { _ = try Self.value("~").text("a number") }
        #expect(throws: TimeModelError(.wrongType, "expected a number, found a boolean (false)", subject: "key")) {
            _ = try Self.value("false").text("a number")
        }
    }

    @Test func mappingsNameTheirKeys() throws {
        let root = try DocumentNode(parsing: "a: 1\nb: {c: 2}\n")
        let keys = try root.mapping(allowed: ["a", "b"], required: ["a"])
        #expect(keys["b"]?.path == "b")
        #expect(try keys["b"]?.mapping(allowed: ["c"])["c"]?.path == "b.c")
        #expect(try root.entries().map(\.key) == ["a", "b"])
        #expect(throws: TimeModelError(.unknownKey, "unknown key 'b'; expected one of a, d", subject: "b")) {
            _ = try root.mapping(allowed: ["a", "d"])
        }
        #expect(throws: TimeModelError(.missingKey, "missing required key 'd'", subject: "document")) {
            _ = try root.mapping(allowed: ["a", "b", "d"], required: ["d"])
        }
        #expect(throws: TimeModelError(.missingKey, "missing required key 'd'", subject: "b")) {
            _ = try keys["b"]!.mapping(allowed: ["c", "d"], required: ["d"])
        }
        #expect(throws: TimeModelError(.wrongType, "expected a mapping of keys to values, found a list", subject: "document")) {
            _ = try DocumentNode(parsing: "[1, 2]").mapping(allowed: [])
        }
    }

    @Test func listsNumberTheirElements() throws {
        let list = try DocumentNode(parsing: "items: [a, [b, c]]").mapping(allowed: ["items"])["items"]!
        let elements = try list.sequence()
        #expect(elements.map(\.path) == ["items[0]", "items[1]"])
        #expect(try elements[1].sequence().map(\.path) == ["items[1][0]", "items[1][1]"])
        #expect(list.isSequence && !elements[0].isSequence)
    }

    @Test func documentsThatAreNotOne() {
        #expect(throws: TimeModelError(.missingKey, "the document is empty")) { _ = try DocumentNode(parsing: "") }
        #expect(throws: TimeModelError(.missingKey, "the document is empty")) { _ = try DocumentNode(parsing: "# only a comment\n") }
        #expect { _ = try DocumentNode(parsing: "a: [1") } throws: { ($0 as? TimeModelError)?.kind == .unparseable }
        #expect { _ = try DocumentNode(parsing: "a: 1\n  b: 2") } throws: { ($0 as? TimeModelError)?.kind == .unparseable }
    }

    /// A key given twice is refused, naming the key and its line, without quoting the document.
    @Test func aKeyGivenTwiceIsRefused() {
        func twice(onLine line: Int) -> TimeModelError {
            var error = TimeModelError(.unparseable, "key 'source' is given twice in one mapping (first on line \(line))")
            error.line = line
            return error
        }
        #expect(throws: twice(onLine: 3)) {
            _ = try EditScript(parsing: "slomo: 1\nclips:\n  - source: a.mov\n    end: 2\n    source: b.mov\n")
        }
        #expect(throws: twice(onLine: 2)) {
            _ = try EditScript(parsing: "slomo: 1\nclips: [{source: a.mov, source: b.mov}]")
        }
    }
}
