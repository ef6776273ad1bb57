import Foundation
import SlomoCore
import SlomoScript
import Testing

/// Scripts as files: the format by extension, writing refused for others, and sources written
/// relative to the script so that the script and its media can move together.
@Suite struct EditScriptFileTests {
    @Test(arguments: [("edit.yaml", EditScript.Format.yaml), ("EDIT.YML", .yaml), ("a/b.c/edit.json", .json), ("edit.JSON", .json)])
    func formatByExtension(path: String, format: EditScript.Format) {
        #expect(EditScript.Format(path: path) == format)
    }

    @Test(arguments: ["edit.txt", "edit", "yaml", "edit.yaml.bak", ".yamlx"])
    func otherExtensionsAreRefused(path: String) {
        #expect(EditScript.Format(path: path) == nil)
        #expect(throws: TimeModelError(.invalidValue, "an edit script must end in .yaml, .yml or .json", subject: "/nonexistent/\(path)")) {
            try EditScript(clips: [.init(source: "a.mov")]).write(to: "/nonexistent/\(path)")
        }
    }

    @Test func writingFailsWithTheFileSystemsError() {
        #expect(throws: (any Error).self) { try EditScript(clips: [.init(source: "a.mov")]).write(to: "/nonexistent/folder/edit.yaml") }
    }

    @Test(arguments: [
        ("/work/edits/edit.yaml", "/work/edits/clip.mov", "clip.mov"),
        ("/work/edits/edit.yaml", "/work/edits/takes/clip.mov", "takes/clip.mov"),
        ("/work/edits/edit.yaml", "/work/footage/clip.mov", "../footage/clip.mov"),
        ("/work/edits/deep/edit.yaml", "/work/footage/a/clip.mov", "../../footage/a/clip.mov"),
        ("/work/edits/edit.yaml", "/media/clip.mov", "/media/clip.mov"),
        ("/work/edits/edit.yaml", "relative/clip.mov", "relative/clip.mov"),
        ("/work/edits/../edits/edit.yaml", "/work/edits/./clip.mov", "clip.mov"),
    ])
    func sourcesRelativeToTheScript(script: String, source: String, written: String) {
        let relative = EditScript(clips: [.init(source: source)]).relativized(toFolderOf: script)
        #expect(relative.clips[0].source == written)
    }

    /// A relativized script read back from its file finds the same source.
    @Test func relativizedSourcesResolveToTheSameFile() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("slomo-relative-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/edits", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/footage", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: root + "/footage/clip.mov", contents: Data())
        let path = root + "/edits/edit.json"
        try EditScript(clips: [.init(source: root + "/footage/clip.mov")]).relativized(toFolderOf: path).write(to: path)
        let loaded = try EditScript(contentsOf: path)
        #expect(loaded.clips[0].source == "../footage/clip.mov")
        #expect(URL(fileURLWithPath: loaded.sourcePath(of: loaded.clips[0])).standardizedFileURL.path
                == URL(fileURLWithPath: root + "/footage/clip.mov").standardizedFileURL.path)
    }
}
