import Foundation
import SlomoCore

extension TimeModelError {
    /// The same error found in the edit script at `path` (whose text is `text`, read from the
    /// file when nil): named `path:LINE: …`, the line of the place in the document its subject
    /// names (`edit.yaml:4: clips[0].sections[0].rate: …`; the nearest enclosing place that has
    /// one) or that it already knows (a key given twice), and `path: …` when the text shows none.
    public func inScript(at path: String, text: String? = nil) -> TimeModelError {
        guard let line = line ?? documentLine(in: text ?? (try? String(contentsOfFile: path, encoding: .utf8))) else {
            return inDocument(path)
        }
        var located = inDocument("\(path):\(line)")
        located.line = line
        return located
    }

    /// The line of the document place the subject starts with (`clips[1].sections[0]` of
    /// `clips[1].sections[0]: section '2-4x0'`), or of the nearest place around it that has one.
    private func documentLine(in text: String?) -> Int? {
        guard let subject, let text, let lines = try? DocumentNode(parsing: text).lines() else { return nil }
        var place = Substring(subject.components(separatedBy: ": ")[0])
        while !place.isEmpty {
            if let line = lines[String(place)] { return line }
            // Up one level: `a.b[2]` → `a.b` → `a`.
            guard let cut = place.lastIndex(where: { $0 == "." || $0 == "[" }) else { break }
            place = place[..<cut]
        }
        return nil
    }
}
