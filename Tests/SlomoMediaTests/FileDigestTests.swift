import CSHA256
import Foundation
import SlomoMedia
import SlomoTestSupport
import Testing

/// A batch trusts an output again only if its SHA-256 still matches, so the digest must be
/// SHA-256 exactly: coreutils' `sha256sum` is the judge, for lengths around every padding edge
/// and a file longer than the 1 MiB read block, with the SHA instructions and without.
@Suite struct FileDigestTests {
    static let lengths = [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, (1 << 20) + 13, 3 << 20]

    @Test(arguments: lengths) func theDigestIsSha256sums(length: Int) throws {
        let path = try FixtureCache.shared.scratchFolder("digest").appendingPathComponent("bytes-\(length)").path
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let expected = String(try runChecked("sha256sum", [path]).standardOutput.prefix(64))

        #expect(try FileDigest.sha256(of: path) == expected)
        // The portable code, in uneven pieces that straddle block edges.
        var context = SlomoSHA256()
        slomo_sha256_init(&context, 1)
        var start = 0, piece = 1
        while start < length {
            let end = min(length, start + piece)
            bytes[start..<end].withUnsafeBufferPointer { slomo_sha256_update(&context, $0.baseAddress, $0.count) }
            start = end
            piece = piece * 7 % 997 + 1
        }
        var digest = [UInt8](repeating: 0, count: 32)
        slomo_sha256_final(&context, &digest)
        #expect(digest.map { String(format: "%02x", $0) }.joined() == expected)
    }

    /// This machine's CPU has SHA-NI (checked so that the fast path is the one measured above,
    /// not silently the portable one).
    @Test func theFastPathIsTheOneTested() throws {
        let flags = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let hasSHA = flags.split(separator: "\n").contains { $0.hasPrefix("flags") && $0.split(separator: " ").contains("sha_ni") }
        #expect((slomo_sha256_accelerated() != 0) == hasSHA)
        print("SHA-256 with SHA-NI: \(slomo_sha256_accelerated() != 0)")
    }

    @Test func knownAnswers() {
        #expect(FileDigest.sha256(text: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(FileDigest.sha256(text: "") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(FileDigest.sha256(text: "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}
