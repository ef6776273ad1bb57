import Foundation
import SlomoCore
import SlomoMedia
import SlomoTestSupport
import Testing

/// `DecodeCheck` and `inspect(verify:)`: damage in the media data is found by decoding, and
/// nothing is reported where there is none.
@Suite struct DecodeCheckTests {
    /// Every fixture, from 8-bit H.264 with B-frames to 10-bit HEVC (HLG, PQ), decodes
    /// cleanly: verifying reports no damage in an undamaged file.
    @Test(arguments: Fixture.allCases)
    func undamagedFilesVerifyClean(_ fixture: Fixture) throws {
        let file = try MediaFile.inspect(path: try fixture.path, measureFrames: false, verify: true)
        #expect(file.damage == nil, "\(fixture): \(file.damage ?? [])")
    }

    /// Three consecutive packets of a 60 fps clip with their data spoiled: one report for the
    /// stream, with the count and the span, in seconds from the stream's start.
    @Test func spoiledPacketsAreCountedWithWhereTheyAre() throws {
        let source = try Fixture.videoOnly.path
        let packets = try runChecked("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=pts_time,size,pos",
                                                 "-of", "csv=p=0", source]).standardOutput
        let spoiled = packets.split(separator: "\n").map { $0.split(separator: ",") }
            .filter { Double($0[0])! >= 1.0 }.prefix(3).map { (time: Double($0[0])!, size: Int($0[1])!, position: Int($0[2])!) }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        for packet in spoiled {
            for index in (packet.position + 8)..<(packet.position + packet.size) { bytes[index] ^= 0x5A }
        }
        let copy = try FixtureCache.shared.scratchFolder("decode-check").appendingPathComponent("spoiled.mp4")
        try Data(bytes).write(to: copy)

        let demuxer = try Demuxer(path: copy.path)
        let check = try DecodeCheck(demuxer: demuxer, stream: 0)
        while let packet = try demuxer.read() { check.check(packet) }
        let damage = try #require(check.finish())
        #expect(damage.kind == .undecodable)
        #expect(damage.stream == 0)
        #expect(damage.packets == 3)
        let between = try #require(damage.between)
        let first = spoiled.map(\.time).min()!, last = spoiled.map(\.time).max()!
        #expect(abs(between.start.doubleSeconds - first) < 1e-6 && abs(between.end.doubleSeconds - last) < 1e-6, "\(between)")
        #expect(damage.message == "video: 3 packets could not be decoded cleanly between "
                + String(format: "%.2f s and %.2f s (file damaged?)", first, last))
    }
}
