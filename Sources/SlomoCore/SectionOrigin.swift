/// Where a section came from, to name it in messages: section syntax a caller wrote (on a
/// command line or in code), or a place in a document (an edit script, a timeline). A front
/// end tells a typing mistake (`.syntax`) from a bad document by it.
public enum SectionOrigin: Hashable, Sendable, CustomStringConvertible {
    /// Section syntax, named `section '2-4x0.25'`.
    case syntax(String)
    /// Freeze syntax a caller wrote, named `freeze '3:2'`.
    case freezeSyntax(String)
    /// A place in a document, named by its path: `clips[0].sections[1]`.
    case document(String)

    /// True for text a caller typed (a mistake in usage), false for a document's content.
    public var isTyped: Bool {
        if case .document = self { false } else { true }
    }

    /// How messages name the section.
    public var description: String {
        switch self {
        case .syntax(let text): "section '\(text)'"
        case .freezeSyntax(let text): "freeze '\(text)'"
        case .document(let path): path
        }
    }
}
