import Foundation
import Glibc
import SlomoCore

/// An output file being written, which has no name until it is finished, so that nothing is
/// left behind whatever happens to the process (SIGKILL included): an unnamed file in the
/// target's folder (`O_TMPFILE`; the kernel frees it when its last descriptor closes), linked
/// to the target's name by `publish()`. FFmpeg writes it through `/proc/self/fd/N`, which
/// reopens the same file (also for `faststart`'s second pass).
///
/// Where the filesystem cannot make unnamed files, it is a named partial beside the target,
/// `.NAME.slomo-partial-PID-XXXXXXXX.EXT`; partials of the same target whose writer (PID) has
/// died are removed first.
public final class PartialFile {
    /// The path to write to (FFmpeg, cairo: anything that opens a path).
    public let writePath: String
    private let target: String
    private let overwrite: Bool
    private var descriptor: Int32?

    /// `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY` in `<bits/fcntl-linux.h>`), which Swift does
    /// not import.
    private static let unnamedFlag: Int32 = 0o20_000_000 | O_DIRECTORY

    /// Prepares an unnamed (or, failing that, named) partial for `target`, after checking that
    /// the target may be written.
    public init(target: String, overwrite: Bool) throws(MediaError) {
        try OutputPath.checkWritable(target, overwrite: overwrite)
        self.target = target
        self.overwrite = overwrite
        let folder = URL(fileURLWithPath: target).deletingLastPathComponent().path
        let unnamed = open(folder, Self.unnamedFlag | O_RDWR | O_CLOEXEC, mode_t(0o644))
        // FFmpeg reaches the unnamed file through /proc, which a sandbox may not mount.
        if unnamed >= 0, access("/proc/self/fd/\(unnamed)", W_OK) == 0 {
            descriptor = unnamed
            writePath = "/proc/self/fd/\(unnamed)"
        } else {
            if unnamed >= 0 { close(unnamed) }
            Self.removeStalePartials(of: target)
            writePath = Self.namedPartial(for: target, writer: getpid())
        }
    }

    deinit { discard() }

    /// Gives the finished file its name. The target appears whole or not at all; an existing
    /// one is replaced only with `overwrite`.
    public func publish() throws(MediaError) {
        guard let descriptor else {
            try call("move the finished file into place") { rename(writePath, target) }
            return
        }
        if overwrite {
            // linkat cannot replace: link under a private name, then rename over the target.
            let staging = Self.namedPartial(for: target, writer: getpid())
            try call("name the finished file") { linkat(AT_FDCWD, writePath, AT_FDCWD, staging, AT_SYMLINK_FOLLOW) }
            do throws(MediaError) { try call("move the finished file into place") { rename(staging, target) } } catch {
                unlink(staging)
                throw error
            }
        } else {
            do throws(SystemError) {
                try SystemError.check("linkat") { linkat(AT_FDCWD, writePath, AT_FDCWD, target, AT_SYMLINK_FOLLOW) }
            } catch {
                throw error.code == EEXIST
                    ? MediaError(.outputExists, path: target, issue: SettingIssue(.overwrite, nil, "appeared while writing (use {overwrite} to replace it)"))
                    : MediaError(.writeFailed, path: target, detail: "cannot name the finished file: \(error.message)")
            }
        }
        close(descriptor)
        self.descriptor = nil
    }

    /// Drops an unfinished file: the unnamed one vanishes with its descriptor, a named one is
    /// removed.
    public func discard() {
        if let descriptor {
            close(descriptor)
            self.descriptor = nil
        } else if FileManager.default.fileExists(atPath: writePath) && !OutputPath.sameFile(writePath, target) {
            unlink(writePath)
        }
    }

    /// Makes a file system call; its failure is `.writeFailed`: `cannot OPERATION: reason`.
    private func call(_ operation: String, _ body: () -> Int32) throws(MediaError) {
        do throws(SystemError) { try SystemError.check(operation, body) } catch {
            throw MediaError(.writeFailed, path: target, detail: "cannot \(operation): \(error.message)")
        }
    }

    /// `.NAME.slomo-partial-PID-XXXXXXXX.EXT` beside `target`.
    private static func namedPartial(for target: String, writer: pid_t) -> String {
        let url = URL(fileURLWithPath: target)
        let suffix = url.pathExtension.isEmpty ? "" : "." + url.pathExtension
        let unique = UUID().uuidString.prefix(8)
        return url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.deletingPathExtension().lastPathComponent).slomo-partial-\(writer)-\(unique)\(suffix)").path
    }

    /// Removes named partials of `target` whose writer process no longer exists.
    private static func removeStalePartials(of target: String) {
        let url = URL(fileURLWithPath: target)
        let folder = url.deletingLastPathComponent()
        let prefix = ".\(url.deletingPathExtension().lastPathComponent).slomo-partial-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), pid > 0 else { continue }
            do throws(SystemError) { try SystemError.check("kill") { kill(pid, 0) }; continue } catch {
                guard error.code == ESRCH else { continue }    // alive, or not ours to ask about
            }
            unlink(folder.appendingPathComponent(name).path)
        }
    }
}
