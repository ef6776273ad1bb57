import Foundation

/// Whether a folder is on storage that a cluster's other nodes can see: the type of the file
/// system it is mounted from (the longest mount point above it in `/proc/self/mounts`), judged
/// against the network and cluster file systems.
public struct SharedStorage: Sendable {
    /// The file system's type as the kernel names it (`nfs4`, `lustre`, `ext4`, …).
    public let fileSystem: String
    /// True for network and cluster file systems.
    public let isShared: Bool

    private static let sharedTypes: Set<String> = [
        "nfs", "nfs4", "cifs", "smb3", "lustre", "gpfs", "beegfs", "ceph", "glusterfs", "9p", "wekafs", "panfs", "afs",
        "fuse.sshfs", "fuse.glusterfs", "fuse.ceph-fuse", "fuse.juicefs", "fuse.gcsfuse", "fuse.s3fs",
    ]

    /// The storage `path` is on; nil when the mount table cannot be read.
    public init?(of path: String) {
        guard let table = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return nil }
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var best: (point: String, type: String)?
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            // The mount table escapes spaces in paths as \040.
            let point = fields[1].replacingOccurrences(of: "\\040", with: " ")
            let inside = point == "/" || real == point || real.hasPrefix(point + "/")
            if inside, point.count >= (best?.point.count ?? 0) { best = (point, String(fields[2])) }
        }
        guard let best else { return nil }
        fileSystem = best.type
        isShared = Self.sharedTypes.contains(best.type)
    }
}
