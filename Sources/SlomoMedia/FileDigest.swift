import CSHA256
import Foundation

/// SHA-256 digests (`CSHA256`: the CPU's SHA instructions where it has them) as 64 lowercase hex digits: what a batch records of every
/// output it makes and checks before it trusts an output again, and how it names a job.
public enum FileDigest {
    /// The digest of the file at `path`, read in 1 MiB blocks; throws `.unreadable` when it
    /// cannot be read to its end.
    public static func sha256(of path: String) throws(MediaError) -> String {
        let file: UnsafeMutablePointer<FILE>
        do throws(SystemError) { file = try SystemError.check("fopen") { fopen(path, "rb") } } catch {
            throw MediaError(.unreadable, path: path, detail: "cannot be read to check its SHA-256: \(error.message)")
        }
        defer { fclose(file) }
        var hasher = Hasher256()
        var block = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = block.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            hasher.update(block[..<count])
            if count < block.count { break }
        }
        guard ferror(file) == 0 else { throw MediaError(.unreadable, path: path, detail: "could not be read to its end to check its SHA-256") }
        return hasher.finish()
    }

    /// The digest of `text`'s UTF-8 bytes.
    public static func sha256(text: String) -> String {
        var hasher = Hasher256()
        hasher.update(Array(text.utf8)[...])
        return hasher.finish()
    }

    /// One running SHA-256.
    private struct Hasher256: ~Copyable {
        private var context = SlomoSHA256()

        init() { slomo_sha256_init(&context, 0) }

        mutating func update(_ bytes: ArraySlice<UInt8>) {
            bytes.withUnsafeBufferPointer { slomo_sha256_update(&context, $0.baseAddress, $0.count) }
        }

        consuming func finish() -> String {
            var digest = [UInt8](repeating: 0, count: 32)
            slomo_sha256_final(&context, &digest)
            return digest.map { String(format: "%02x", $0) }.joined()
        }
    }
}
