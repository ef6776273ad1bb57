import Foundation
import Glibc
import SlomoMedia

/// The file-system calls of capture (`stat`, `statvfs`, `unlink`), each failing with the
/// `SystemError` it met.
enum FileSystem {
    /// The status of the file at `path`.
    static func status(of path: String) throws(SystemError) -> stat {
        var info = stat()
        try SystemError.check("stat") { stat(path, &info) }
        return info
    }

    /// Bytes available to unprivileged writers on the file system that holds `path`'s folder.
    static func freeSpace(near path: String) throws(SystemError) -> Int64 {
        var info = statvfs()
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try SystemError.check("statvfs") { statvfs(folder, &info) }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// Removes the file at `path`.
    static func removeFile(at path: String) throws(SystemError) {
        try SystemError.check("unlink") { unlink(path) }
    }
}
