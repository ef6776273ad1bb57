import SlomoCore
import Foundation

/// Loading and saving edit scripts: `.yaml`/`.yml` files are YAML, `.json` files JSON.
extension EditScript {
    /// The document format, chosen by file extension.
    public enum Format: Sendable {
        /// `.yaml` or `.yml`.
        case yaml
        /// `.json`.
        case json

        /// The format of `path` by its extension; nil for anything but .yaml, .yml and .json.
        public init?(path: String) {
            switch (path as NSString).pathExtension.lowercased() {
            case "yaml", "yml": self = .yaml
            case "json": self = .json
            default: return nil
            }
        }
    }

    /// Loads the script at `path`; relative clip sources are taken relative to its folder.
    /// Throws `.missingFile` when the script, or (when `checkSources`) a clip's source, does not
    /// exist; `.invalidValue` for an unknown extension; and the errors of `init(parsing:)`, all
    /// with the script's path and the line prefixed to the subject
    /// (`edit.yaml:7: clips[1].sections[0].rate`: `TimeModelError.inScript(at:text:)`).
    public init(contentsOf path: String, checkSources: Bool = true) throws {
        guard Format(path: path) != nil else {
            throw TimeModelError(.invalidValue, "an edit script must end in .yaml, .yml or .json", subject: path)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TimeModelError(.missingFile, "no such file, or it cannot be read", subject: path)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw TimeModelError(.unparseable, "the file is not UTF-8 text", subject: path)
        }
        do {
            // The script's own folder, absolute: a bare name (`edit.yaml`) has an empty one.
            try self.init(parsing: text, baseDirectory: URL(fileURLWithPath: path).deletingLastPathComponent().path)
            if checkSources {
                for (index, clip) in clips.enumerated() where !FileManager.default.fileExists(atPath: sourcePath(of: clip)) {
                    throw TimeModelError(.missingFile, "source file \(sourcePath(of: clip)) does not exist",
                                         subject: "clips[\(index)].source")
                }
            }
        } catch let error as TimeModelError {
            throw error.inScript(at: path, text: text)
        }
    }

    /// Writes the script to `path` in the format its extension names. Throws `.invalidValue`
    /// for an unknown extension, or the file system's error.
    public func write(to path: String) throws {
        guard let format = Format(path: path) else {
            throw TimeModelError(.invalidValue, "an edit script must end in .yaml, .yml or .json", subject: path)
        }
        let text = format == .yaml ? yaml() : json()
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

extension EditScript {
    /// The script with each absolute source written relative to `scriptPath`'s folder where
    /// the two share a folder below the root (`clip.mov`, `../footage/clip.mov`), so that the
    /// script and its media can move together; other sources stay absolute.
    public func relativized(toFolderOf scriptPath: String) -> EditScript {
        var copy = self
        let folder = URL(fileURLWithPath: scriptPath).standardizedFileURL.deletingLastPathComponent().pathComponents
        for index in copy.clips.indices where copy.clips[index].source.hasPrefix("/") {
            let source = URL(fileURLWithPath: copy.clips[index].source).standardizedFileURL.pathComponents
            let shared = zip(folder, source).prefix { $0 == $1 }.count
            guard shared > 1 else { continue }    // only "/" in common
            let up = Array(repeating: "..", count: folder.count - shared)
            copy.clips[index].source = (up + source[shared...]).joined(separator: "/")
        }
        return copy
    }
}

