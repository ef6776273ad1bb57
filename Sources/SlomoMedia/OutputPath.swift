import Foundation
import SlomoCore

/// The rules every output file follows: its folder must exist, an existing file is replaced
/// only with `overwrite`, and the bytes go to a file without a name until finished
/// (`PartialFile`).
public enum OutputPath {
    /// Throws unless `path` may be written: its folder exists, and it is not a folder, nor an
    /// existing file when `overwrite` is false.
    public static func checkWritable(_ path: String, overwrite: Bool) throws(MediaError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw MediaError(.outputFolderMissing, path: path, detail: "the folder \(folder.path) does not exist")
        }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw MediaError(.notAFile, path: path, detail: "is a directory; give a file name") }
            if !overwrite { throw MediaError(.outputExists, path: path, issue: SettingIssue(.overwrite, nil, "already exists (use {overwrite} to replace it)")) }
        }
    }

    /// True when two paths name the same file (following links), so an input is never an output.
    public static func sameFile(_ a: String, _ b: String) -> Bool {
        let left = URL(fileURLWithPath: a).resolvingSymlinksInPath().standardizedFileURL.path
        let right = URL(fileURLWithPath: b).resolvingSymlinksInPath().standardizedFileURL.path
        if left == right { return true }
        var first = stat(), second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }
}
