import SlomoCore
import Yams

/// A node of a parsed YAML or JSON document together with its path inside the document
/// (`clips[1].sections[0].rate`), with typed accessors whose errors name that path.
package struct DocumentNode {
    let node: Node
    /// Where the node is inside the document: `jobs[2].options.section`.
    package let path: String

    /// The node's line in the document's text, counting from 1; nil where Yams did not record it.
    package var line: Int? { node.mark.map(\.line) }

    /// The root of `text` (YAML, of which JSON is a subset).
    package init(parsing text: String) throws {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch YamlError.duplicatedKeysInMapping(let keys, let context) {
            // Yams's own text quotes the whole document, however long.
            let names = keys.map { "'\($0)'" }.joined(separator: ", ")
            var error = TimeModelError(.unparseable, "key \(names) is given twice in one mapping (first on line \(context.mark.line))")
            error.line = context.mark.line
            throw error
        } catch {
            throw TimeModelError(.unparseable, "not valid YAML or JSON: \(error)")
        }
        guard let root else { throw TimeModelError(.missingKey, "the document is empty") }
        self.init(node: root, path: "")
    }

    private init(node: Node, path: String) {
        self.node = node
        self.path = path
    }

    /// The values of a mapping by key. Throws `.wrongType` when this is not a mapping,
    /// `.unknownKey` for a key not in `allowed`, `.missingKey` for a `required` key that is
    /// absent.
    package func mapping(allowed: [String], required: [String] = []) throws -> [String: DocumentNode] {
        guard case .mapping(let mapping) = node else { throw wrongType("a mapping of keys to values") }
        var values: [String: DocumentNode] = [:]
        for (key, value) in mapping {
            guard case .scalar(let scalar) = key else { throw wrongType("text keys") }
            let name = scalar.string
            let child = DocumentNode(node: value, path: path.isEmpty ? name : "\(path).\(name)")
            guard allowed.contains(name) else {
                throw TimeModelError(.unknownKey, "unknown key '\(name)'; expected one of "
                                     + allowed.joined(separator: ", "), subject: child.path)
            }
            values[name] = child     // a key given twice never gets here: `init(parsing:)` refuses the document
        }
        for key in required where values[key] == nil {
            throw TimeModelError(.missingKey, "missing required key '\(key)'", subject: path.isEmpty ? "document" : path)
        }
        return values
    }

    /// Every key of a mapping with its value, in the document's order, whatever the keys;
    /// throws `.wrongType` when this is not a mapping of text keys.
    package func entries() throws -> [(key: String, value: DocumentNode)] {
        guard case .mapping(let mapping) = node else { throw wrongType("a mapping of keys to values") }
        return try mapping.map { key, value in
            guard case .scalar(let scalar) = key else { throw wrongType("text keys") }
            return (scalar.string, DocumentNode(node: value, path: path.isEmpty ? scalar.string : "\(path).\(scalar.string)"))
        }
    }

    /// The elements of a sequence; throws `.wrongType` otherwise.
    package func sequence() throws -> [DocumentNode] {
        guard case .sequence(let sequence) = node else { throw wrongType("a list") }
        return sequence.enumerated().map { DocumentNode(node: $1, path: "\(path)[\($0)]") }
    }

    /// True when this is a list.
    package var isSequence: Bool {
        if case .sequence = node { return true }
        return false
    }

    /// The value of a `true` or `false` scalar; nil for anything else.
    package var boolean: Bool? {
        guard case .scalar = node, tagName == .bool else { return nil }
        return node.bool
    }

    /// The line of every node below this one (and of this one) by its path, so that an error
    /// naming a path can name its line too.
    package func lines() -> [String: Int] {
        var lines: [String: Int] = [:]
        if let line { lines[path] = line }
        switch node {
        case .mapping(let mapping):
            for (key, value) in mapping {
                guard case .scalar(let scalar) = key else { continue }
                let child = DocumentNode(node: value, path: path.isEmpty ? scalar.string : "\(path).\(scalar.string)")
                // A key's own line, where its value (a list, a mapping) starts on a later one.
                lines[child.path] = key.mark?.line ?? child.line
                lines.merge(child.lines()) { first, _ in first }
            }
        case .sequence:
            for child in (try? sequence()) ?? [] { lines.merge(child.lines()) { first, _ in first } }
        default:
            break
        }
        return lines
    }

    /// The resolved YAML tag of the node (str, int, float, bool, null, …).
    private var tagName: Tag.Name { Tag.Name(rawValue: node.tag.rawValue) }

    /// True when this is a text scalar (quoted, or plain text that is not a number).
    package var isString: Bool {
        if case .scalar = node { return tagName == .str }
        return false
    }

    /// The text of a scalar that is a string or a number; throws `.wrongType` for mappings,
    /// lists, booleans and nulls.
    package func text(_ expected: String) throws -> String {
        guard case .scalar(let scalar) = node, ![.bool, .null].contains(tagName) else {
            throw wrongType(expected)
        }
        return scalar.string
    }

    /// An integer; throws `.wrongType` otherwise.
    package func integer() throws -> Int {
        guard tagName == .int, let value = Int(try text("an integer")) else { throw wrongType("an integer") }
        return value
    }

    /// A time: seconds, or text (timecode, `f480`, `end`, `1/3`).
    package func position() throws -> SectionSpec.Position {
        let text = try self.text("a time (seconds such as 2.5 or 1500ms, a timecode, f480 or end)")
        do {
            return try SectionSpec.Position(parsing: text)
        } catch {
            throw wrongType("a time (seconds such as 2.5 or 1500ms, a timecode, f480 or end)")
        }
    }

    /// A duration: seconds (a number, or text such as `1/3`, `300ms`, `00:00:01.5`).
    package func duration() throws -> MediaTime {
        guard let time = try? MediaTime(parsing: try text("seconds")), time >= .zero else {
            throw wrongType("seconds, such as 0.3 or 300ms")
        }
        return time
    }

    /// A rate: a number, or a fraction as text; out-of-range rates throw the `Rate` errors.
    /// A section's rate: a number or a fraction as text, negative to play backwards.
    package func directedRate() throws -> (rate: Rate, reversed: Bool) {
        let expected = "a rate (a number such as 0.25 or -1, or a fraction such as \"1/4\")"
        guard let value = Rational(decimal: try text(expected)) else { throw wrongType(expected) }
        return try TimeModelError.located(path) { try Rate.directed(value) }
    }

    /// Semitones: a number (`3`, `-2`, `0.5` for 50 cents).
    package func semitones() throws -> Double {
        let expected = "semitones, such as 3, -2 or 0.5"
        guard let value = Double(try text(expected)), value.isFinite else { throw wrongType(expected) }
        return value
    }

    /// An angle in degrees: a number (`180`, `172.8`) or a fraction as text.
    package func angle() throws -> Rational {
        let expected = "an angle in degrees such as 180"
        guard let value = Rational(decimal: try text(expected)) else { throw wrongType(expected) }
        return value
    }

    /// A positive frame rate: a number (`29.97` is 30000/1001), or a fraction as text (`"30000/1001"`).
    package func frameRate() throws -> Rational {
        let expected = "a frame rate (a number such as 30 or 29.97, or a fraction such as \"30000/1001\")"
        guard let value = Rational(frameRate: try text(expected)), value.numerator > 0 else {
            throw wrongType(expected)
        }
        return value
    }

    /// One of the raw values of `type`; throws `.invalidValue` listing them otherwise.
    package func choice<T: RawRepresentable & CaseIterable>(_ type: T.Type) throws -> T where T.RawValue == String {
        let names = T.allCases.map(\.rawValue)
        let text = try self.text("one of " + names.joined(separator: ", "))
        guard let value = T(rawValue: text) else {
            throw TimeModelError(.invalidValue, "'\(text)' is not one of " + names.joined(separator: ", "), subject: path)
        }
        return value
    }

    /// Text; throws `.wrongType` for anything but a string.
    package func string(_ expected: String) throws -> String {
        guard isString else { throw wrongType(expected) }
        return try text(expected)
    }

    package func wrongType(_ expected: String) -> TimeModelError {
        let found: String
        switch node {
        case .mapping: found = "a mapping"
        case .sequence: found = "a list"
        case .alias: found = "an alias"
        case .scalar(let scalar):
            switch tagName {
            case .null: found = "nothing"
            case .bool: found = "a boolean (\(scalar.string))"
            case .str: found = "the text '\(scalar.string)'"
            default: found = scalar.string
            }
        }
        return TimeModelError(.wrongType, "expected \(expected), found \(found)", subject: path.isEmpty ? "document" : path)
    }
}
