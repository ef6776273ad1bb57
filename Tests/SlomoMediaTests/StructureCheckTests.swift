import Foundation
import SlomoCore
import SlomoMedia
import SlomoTestSupport
import Testing

/// `StructureCheck`: each codec's framing rules find a malformed packet without decoding, say
/// what is wrong with it and where, and find nothing in undamaged files.
@Suite struct StructureCheckTests {
    /// Every fixture's video keeps its codec's rules (a check that cried wolf would make every
    /// retime warn).
    @Test(arguments: Fixture.allCases)
    func undamagedFilesAreWellFormed(_ fixture: Fixture) throws {
        let demuxer = try Demuxer(path: try fixture.path)
        let checks = demuxer.file.streams.filter { $0.kind == .video }.map { StructureCheck(demuxer: demuxer, stream: $0.index) }
        while let packet = try demuxer.read() {
            for check in checks where check.stream == packet.streamIndex { check.check(packet) }
        }
        for check in checks { #expect(check.finish().isEmpty, "\(fixture): \(check.finish())") }
    }

    /// A codec, how to make a 1 s clip of it, and a change to one packet's bytes that breaks
    /// its rules, with what the check must then say.
    struct Case: CustomTestStringConvertible, Sendable {
        let codec: String
        let encoder: [String]
        let spoil: @Sendable (inout [UInt8], _ packet: Range<Int>) -> Void
        let finding: String
        var testDescription: String { codec }
    }

    static let cases: [Case] = [
        Case(codec: "h264", encoder: ["-c:v", "libx264", "-bf", "2"], spoil: { bytes, packet in
            bytes[packet.lowerBound + 3] &+= 1                         // the first unit's length, one too many
        }, finding: "a NAL unit runs past the packet's end"),
        Case(codec: "hevc", encoder: ["-c:v", "libx265", "-x265-params", "log-level=error"], spoil: { bytes, packet in
            bytes[packet.lowerBound + 4] = 45 << 1                     // the first unit's header: reserved type 45
        }, finding: "a NAL unit of reserved type 45"),
        Case(codec: "mjpeg", encoder: ["-c:v", "mjpeg"], spoil: { bytes, packet in
            bytes[packet.upperBound - 2] = 0                           // the end-of-image marker
            bytes[packet.upperBound - 1] = 0
        }, finding: "a JPEG image without its end-of-image marker"),
        Case(codec: "prores", encoder: ["-c:v", "prores_ks"], spoil: { bytes, packet in
            let frame = packet.lowerBound
            let picture = frame + 8 + (Int(bytes[frame + 8]) << 8 | Int(bytes[frame + 9]))
            let index = picture + Int(bytes[picture] >> 3)
            bytes[index + 1] &+= 1                                     // the first slice's size, one byte more
        }, finding: "ProRes slices that do not add up to their picture"),
    ]

    /// The packet at 0.5 s spoiled: one packet reported, at 0.50 s, with the rule it broke;
    /// the clip before the change is well formed.
    @Test(arguments: cases)
    func malformedPacketIsFoundWithWhatItBreaks(_ example: Case) throws {
        let folder = try FixtureCache.shared.scratchFolder("structure-check")
        let clip = folder.appendingPathComponent("\(example.codec).mov")
        try runChecked("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=24:duration=1"]
                       + example.encoder + [clip.path])
        #expect(try Self.check(clip.path).isEmpty, "the clip as encoded")

        let packets = try runChecked("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=pts_time,size,pos",
                                                 "-of", "csv=p=0", clip.path]).standardOutput
        let fields = try #require(packets.split(separator: "\n").map { $0.split(separator: ",") }.first { $0[0] == "0.500000" })
        let position = try #require(Int(fields[2])), size = try #require(Int(fields[1]))
        var bytes = [UInt8](try Data(contentsOf: clip))
        example.spoil(&bytes, position..<(position + size))
        let spoiled = folder.appendingPathComponent("\(example.codec)-spoiled.mov")
        try Data(bytes).write(to: spoiled)

        let found = try Self.check(spoiled.path)
        try #require(found.count == 1, "\(found)")
        let damage = found[0]
        #expect(damage.kind == .undecodable)
        #expect(damage.packets == 1)
        #expect(damage.message == "video: 1 packet is malformed at 0.50 s (\(example.finding); file damaged?)")
    }

    /// A composition offset in the index changed so that two pictures present at once (what
    /// ffmpeg's muxer calls "non monotonically increasing dts"): found for any codec, here one
    /// without framing rules, whose data passthrough leaves to `--verify`.
    @Test func sharedPresentationTimeIsFoundForAnyCodec() throws {
        let folder = try FixtureCache.shared.scratchFolder("structure-check")
        let clip = folder.appendingPathComponent("mpeg4.mov")
        try runChecked("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=24:duration=1",
                                  "-c:v", "mpeg4", "-bf", "2", clip.path])
        #expect(try Self.check(clip.path).isEmpty, "the clip as encoded")
        #expect(!StructureCheck(demuxer: try Demuxer(path: clip.path), stream: 0).checksFraming)

        // ctts: version and flags, entry count, then (sample count, offset) pairs; the second
        // entry's offset becomes the first's.
        var bytes = [UInt8](try Data(contentsOf: clip))
        let box = try #require((0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual("ctts".utf8) })
        let entries = box + 12
        let first = Array(bytes[(entries + 4)..<(entries + 8)]), second = entries + 12
        try #require(!bytes[second..<(second + 4)].elementsEqual(first), "two entries with different offsets")
        bytes.replaceSubrange(second..<(second + 4), with: first)
        let spoiled = folder.appendingPathComponent("mpeg4-shared.mov")
        try Data(bytes).write(to: spoiled)

        let found = try Self.check(spoiled.path)
        try #require(found.count == 1, "\(found)")
        #expect(found[0].kind == .structure)
        #expect(found[0].message.hasSuffix("(index damaged?)"))
        #expect(found[0].message.contains("the presentation time"), "\(found[0].message)")
    }

    static func check(_ path: String) throws -> [Damage] {
        let demuxer = try Demuxer(path: path)
        let check = StructureCheck(demuxer: demuxer, stream: 0)
        while let packet = try demuxer.read() {
            if packet.streamIndex == 0 { check.check(packet) }
        }
        return check.finish()
    }
}
