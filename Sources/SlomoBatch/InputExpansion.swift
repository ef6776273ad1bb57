import Foundation
import Glibc

/// Turns a request's input into files and its output pattern into each file's output: a glob
/// (`takes/*.MOV`, matched with the C library's `glob`, sorted) and the placeholders `{stem}`,
/// `{name}`, `{ext}`, `{dir}` and `{index}`.
enum InputExpansion {
    /// The files `pattern` matches (absolute, sorted); empty when none does.
    static func matches(_ pattern: String, in base: String) -> [String] {
        let absolute = absolutePath(pattern, in: base)
        var found = glob_t()
        defer { globfree(&found) }
        guard glob(absolute, 0, nil, &found) == 0 else { return [] }
        return (0..<Int(found.gl_pathc)).compactMap { found.gl_pathv[$0].map { String(cString: $0) } }
            .filter { !isDirectory($0) }.sorted()
    }

    /// True when `output` names each input's output apart (it has a placeholder).
    static func hasPlaceholder(_ output: String) -> Bool {
        ["{stem}", "{name}", "{index}"].contains { output.contains($0) }
    }

    /// `pattern` with the placeholders of `input` (the `index`th match) filled in, absolute.
    static func output(_ pattern: String, for input: String, index: Int, in base: String) -> String {
        let url = URL(fileURLWithPath: input)
        let filled = pattern
            .replacingOccurrences(of: "{stem}", with: url.deletingPathExtension().lastPathComponent)
            .replacingOccurrences(of: "{name}", with: url.lastPathComponent)
            .replacingOccurrences(of: "{ext}", with: url.pathExtension)
            .replacingOccurrences(of: "{dir}", with: url.deletingLastPathComponent().path)
            .replacingOccurrences(of: "{index}", with: String(index))
        return absolutePath(filled, in: base)
    }

    /// `path` made absolute against `base` and standardised (no `.` or `..`).
    static func absolutePath(_ path: String, in base: String) -> String {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : URL(fileURLWithPath: base).appendingPathComponent(path)
        return url.standardizedFileURL.path
    }

    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
