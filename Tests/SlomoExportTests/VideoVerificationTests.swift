import Foundation
import SlomoCore
@testable import SlomoExport
import SlomoMedia
import SlomoTestSupport
import Testing

/// Passthrough's verification deals a stream's runs of packets (cut at keyframes) to several
/// checkers: they find exactly what one decoder going through the whole stream finds, and
/// nothing in undamaged files, closed or open GOPs, H.264 or 10-bit HEVC.
@Suite struct VideoVerificationTests {
    /// Packets of `path`'s video through a verification with `checkers` threads.
    static func verify(_ path: String, checkers: Int) throws -> Damage? {
        let demuxer = try Demuxer(path: path)
        let video = try #require(demuxer.file.videoStream)
        let verification = try VideoVerification(demuxer: demuxer, stream: video.index, checkers: checkers)
        defer { verification.cancel() }
        while let packet = try demuxer.read() {
            guard packet.streamIndex == video.index else { continue }
            try verification.submit(packet)
        }
        return try verification.finish()
    }

    /// The same through one `DecodeCheck`, packet after packet.
    static func checkSerially(_ path: String) throws -> Damage? {
        let demuxer = try Demuxer(path: path)
        let video = try #require(demuxer.file.videoStream)
        let check = try DecodeCheck(demuxer: demuxer, stream: video.index)
        while let packet = try demuxer.read() {
            guard packet.streamIndex == video.index else { continue }
            check.check(packet)
        }
        return check.finish()
    }

    /// 8 s at 60 fps with a keyframe every 15 frames (32 runs for the checkers), B-frames.
    static func movie(_ name: String, x264: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try runChecked("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=60", "-t", "8",
                                  "-c:v", "libx264", "-preset", "veryfast", "-g", "15", "-bf", "2", "-x264-params", x264,
                                  "-pix_fmt", "yuv420p", path])
        return path
    }

    /// A copy of `clean` with every 37th video packet's data spoiled (from the 21st on): damage
    /// in many runs, dealt to every checker or decoder.
    static func spoiled(_ clean: String, in folder: URL) throws -> String {
        let packets = try runChecked("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=size,pos",
                                                 "-of", "csv=p=0", clean]).standardOutput
            .split(separator: "\n").map { $0.split(separator: ",").map { Int($0)! } }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: clean)))
        for packet in stride(from: 20, to: packets.count, by: 37).map({ packets[$0] }) {
            for index in (packet[1] + 8)..<(packet[1] + packet[0]) { bytes[index] ^= 0x5A }
        }
        let spoiled = folder.appendingPathComponent("spoiled.mp4").path
        try Data(bytes).write(to: URL(fileURLWithPath: spoiled))
        return spoiled
    }

    @Test func checkersTogetherFindWhatOneDecoderFinds() throws {
        let folder = try FixtureCache.shared.scratchFolder("verification")
        let spoiled = try Self.spoiled(try Self.movie("clean.mp4", x264: "open-gop=0", in: folder), in: folder)

        let serial = try #require(try Self.checkSerially(spoiled))
        print("one decoder: \(serial.message)")
        #expect(serial.packets >= 12, "13 packets spoiled: \(serial.message)")
        for checkers in [2, 3] {
            let dealt = try #require(try Self.verify(spoiled, checkers: checkers))
            #expect(dealt.message == serial.message, "\(checkers) checkers")
            #expect(dealt.packets == serial.packets && dealt.between == serial.between, "\(checkers) checkers")
        }
    }

    @Test func undamagedStreamsVerifyCleanInRuns() throws {
        let folder = try FixtureCache.shared.scratchFolder("verification-clean")
        let sources = [try Self.movie("closed.mp4", x264: "open-gop=0", in: folder),
                       try Self.movie("open.mp4", x264: "open-gop=1", in: folder),
                       try Fixture.hlg.path, try Fixture.hfr240.path]
        for source in sources {
            let damage = try Self.verify(source, checkers: 3)
            #expect(damage == nil, "\(source): \(damage?.message ?? "")")
        }
    }
}
