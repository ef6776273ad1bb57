import Glibc
import Synchronization

/// What the files opened in this process contain, so that `MediaFile(path:)` does not probe a
/// file again (FFmpeg's stream-information pass costs 10–20 ms per open, and one command opens
/// its input several times: to plan, to choose the export, to export).
///
/// An entry is used only while the file is the same regular file with the same size and
/// modification and change times; a file rewritten in between is probed again.
enum MediaFileCache {
    private struct Identity: Hashable {
        let device: UInt64, inode: UInt64, size: Int64
        let modified: timespec, changed: timespec

        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = info.st_mtim
            changed = info.st_ctim
        }

        static func == (a: Identity, b: Identity) -> Bool {
            (a.device, a.inode, a.size) == (b.device, b.inode, b.size)
                && (a.modified.tv_sec, a.modified.tv_nsec) == (b.modified.tv_sec, b.modified.tv_nsec)
                && (a.changed.tv_sec, a.changed.tv_nsec) == (b.changed.tv_sec, b.changed.tv_nsec)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(inode)
            hasher.combine(size)
        }
    }

    /// Files remembered at most; beyond that the cache starts again.
    private static let capacity = 32
    private static let files = Mutex<[String: (Identity, MediaFile)]>([:])

    /// What `path` contained when it was last opened, if it is still the same file.
    static func file(at path: String) -> MediaFile? {
        guard let identity = Identity(path: path) else { return nil }
        return files.withLock { files in
            guard let (known, file) = files[path], known == identity else { return nil }
            return file
        }
    }

    /// Remembers what `file` (just read from its path) contains.
    static func remember(_ file: MediaFile) {
        guard let identity = Identity(path: file.path) else { return }
        files.withLock { files in
            if files.count >= capacity { files.removeAll() }
            files[file.path] = (identity, file)
        }
    }
}
