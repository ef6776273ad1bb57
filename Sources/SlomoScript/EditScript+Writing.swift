import SlomoCore
import Yams

/// Writing an edit script back as YAML or JSON, in the schema's key order, with exact
/// numbers (a time or rate without a finite decimal form is written as a fraction in text,
/// `"1/3"`). Reading what was written gives an equal script.
extension EditScript {
    /// The script as YAML.
    public func yaml() -> String {
        // Only scalars, sequences and mappings of text: serialisation cannot fail.
        try! Yams.serialize(node: document.yamlNode)
    }

    /// The script as JSON, indented by two spaces, ending with a newline.
    public func json() -> String {
        document.json(indent: "") + "\n"
    }

    private var document: DocumentValue {
        var root: [(String, DocumentValue)] = [("slomo", .number("\(EditScript.version)"))]
        root.append(("clips", .sequence(clips.map(\.document))))
        let output = self.output.document
        if !output.isEmpty { root.append(("output", .mapping(output))) }
        return .mapping(root)
    }
}

extension EditScript.Clip {
    fileprivate var document: DocumentValue {
        var keys: [(String, DocumentValue)] = [("source", .text(source))]
        if start != .time(.zero) { keys.append(("start", DocumentValue(start))) }
        if end != .end { keys.append(("end", DocumentValue(end))) }
        let listed = sections.map(\.document) + autoSections.map { DocumentValue.text($0.text) }
        if !listed.isEmpty { keys.append(("sections", .sequence(listed))) }
        if !freezes.isEmpty { keys.append(("freeze", .sequence(freezes.map(\.document)))) }
        return .mapping(keys)
    }
}

extension FreezeSpec {
    fileprivate var document: DocumentValue {
        var keys: [(String, DocumentValue)] = [("at", DocumentValue(at)), ("for", DocumentValue(duration.seconds))]
        if audio != .silence { keys.append(("audio", .text(audio.rawValue))) }
        return .mapping(keys)
    }
}

extension SectionSpec {
    fileprivate var document: DocumentValue {
        var keys: [(String, DocumentValue)] = [("start", DocumentValue(start)), ("end", DocumentValue(end)),
                                                ("rate", DocumentValue(rate.directedValue(reversed: reversed)))]
        if rampIn == rampOut && rampIn != .zero {
            keys.append(("ramp", DocumentValue(rampIn.seconds)))
        } else {
            if rampIn != .zero { keys.append(("ramp-in", DocumentValue(rampIn.seconds))) }
            if rampOut != .zero { keys.append(("ramp-out", DocumentValue(rampOut.seconds))) }
        }
        if let ease { keys.append(("ease", .text(ease.description))) }
        if let audio { keys.append(("audio", .text(audio.rawValue))) }
        if let pitch { keys.append(("pitch", .number(SectionSpec.semitones(pitch)))) }
        if let frames { keys.append(("frames", .text(frames.rawValue))) }
        return .mapping(keys)
    }
}

extension OutputSettings {
    fileprivate var document: [(String, DocumentValue)] {
        var keys: [(String, DocumentValue)] = []
        if let mode { keys.append(("mode", .text(mode.rawValue))) }
        if let fps { keys.append(("fps", DocumentValue(frameRate: fps))) }
        if let codec { keys.append(("codec", .text(codec))) }
        if let frames { keys.append(("frames", .text(frames.rawValue))) }
        if let interpolation { keys.append(("interpolation", .text(interpolation.rawValue))) }
        if let shutter {
            keys.append(("shutter", DocumentValue(shutter.angle)))
            if shutter.samples > 1 { keys.append(("shutter-samples", .number("\(shutter.samples)"))) }
        }
        if let size { keys.append(("size", .text(size.description))) }
        if let scaling { keys.append(("scaling", .text(scaling.rawValue))) }
        var audioKeys: [(String, DocumentValue)] = []
        if let audio { audioKeys.append(("algorithm", .text(audio.rawValue))) }
        if let audioCodec { audioKeys.append(("codec", .text(audioCodec))) }
        if let spectralEngine { audioKeys.append(("spectral-engine", .text(spectralEngine.rawValue))) }
        if !audioKeys.isEmpty { keys.append(("audio", .mapping(audioKeys))) }
        return keys
    }
}

/// A document to write: mappings keep their key order.
private enum DocumentValue {
    case mapping([(String, DocumentValue)])
    case sequence([DocumentValue])
    case number(String)
    case text(String)

    /// A number when it has an exact decimal form, else a fraction as text.
    init(_ value: Rational) {
        self = Rational.exactDecimal(value).map(DocumentValue.number) ?? .text(value.description)
    }

    /// A number when it reads back as the same frame rate, else the fraction as text: 2997/100
    /// is not written 29.97, which `Rational(frameRate:)` reads as 30000/1001.
    init(frameRate: Rational) {
        if let digits = Rational.exactDecimal(frameRate), Rational(frameRate: digits) == frameRate {
            self = .number(digits)
        } else {
            self = .text(frameRate.description)
        }
    }

    init(_ position: SectionSpec.Position) {
        switch position {
        case .time(let time): self.init(time.seconds)
        case .frame, .timecode, .end: self = .text(position.description)
        }
    }

    var yamlNode: Node {
        switch self {
        case .mapping(let pairs):
            return Node(pairs.map { (Node($0.0), $0.1.yamlNode) })
        case .sequence(let elements):
            return Node(elements.map(\.yamlNode))
        case .number(let digits):
            return Node(digits, Tag(digits.contains(".") ? .float : .int))
        case .text(let text):
            // Quote text that would otherwise read back as something else (numbers, timecodes).
            let plain = Node(text)
            let resolvesAsText = Tag.Name(rawValue: plain.tag.rawValue) == .str
            return Node(text, Tag(.str), resolvesAsText ? .plain : .doubleQuoted)
        }
    }

    func json(indent: String) -> String {
        let inner = indent + "  "
        switch self {
        case .mapping(let pairs):
            let members = pairs.map { "\(inner)\(DocumentValue.quoted($0.0)): \($0.1.json(indent: inner))" }
            return "{\n" + members.joined(separator: ",\n") + "\n\(indent)}"
        case .sequence(let elements):
            guard !elements.isEmpty else { return "[]" }
            return "[\n" + elements.map { inner + $0.json(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .number(let digits):
            return digits
        case .text(let text):
            return DocumentValue.quoted(text)
        }
    }

    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
