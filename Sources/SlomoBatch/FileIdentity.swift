import Glibc

/// What identifies a file's version without reading it: its size and modification time (in
/// nanoseconds). A job's id hashes its input's; a result records its output's, so that a
/// changed or replaced file is noticed.
public struct FileIdentity: Codable, Hashable, Sendable {
    public let bytes: Int64
    public let modifiedNanoseconds: Int64

    /// The identity of the file at `path` now; nil when there is none.
    public init?(of path: String) {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        bytes = Int64(info.st_size)
        modifiedNanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }
}
