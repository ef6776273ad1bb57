import Foundation
import SlomoConcurrency
import SlomoCore
@testable import SlomoExport
import SlomoMedia
import SlomoTestSupport
import Testing

/// The CFR export's decoding in runs, dealt to several decoders: the pictures handed on, their
/// order and times, the damage found and where it stops are exactly what one decoder going
/// through the stream gives, in closed and open GOPs, with pictures skipped and dropped.
@Suite struct RunDecodersTests {
    /// What came out: each picture's time and a digest of its samples, the damage, the runs
    /// the packets were cut into, and how many pictures the decoders decoded.
    struct Decoded {
        var pictures: [(time: MediaTime, digest: UInt64)] = []
        var damage: Damage?
        var runs = 1
        var decodedCount = 0
    }

    /// Decodes `path`'s video on `lanes` decoders, cutting runs where the export would, the
    /// `index`th packet sent with `skipping(index)` (`.none`: its picture needed); stops after a picture past
    /// `last` (nil: at the end). `blindToLeadingPictures` cuts at keyframes whose leading
    /// pictures lean on the run before, to show what the rule prevents.
    static func decode(_ path: String, lanes: Int, skipping: (Int) -> Decoder.PictureSkipping = { _ in .none },
                       last: MediaTime? = nil, blindToLeadingPictures: Bool = false) throws -> Decoded {
        let demuxer = try Demuxer(path: path)
        let video = try #require(demuxer.file.videoStream)
        demuxer.select(streams: [video.index])
        var packets: [Packet] = []
        while let packet = try demuxer.read() { packets.append(packet) }
        let times = packets.map { $0.presentationTime! }
        let output = PipelineQueue<SourceItem>(capacity: 10_000)
        let statistics = DecodeStatistics()
        let runs = try RunDecoders(demuxer: demuxer, stream: video.index, lanes: lanes, threads: 1, output: output,
                                   origin: .zero, statistics: statistics) { time in last.map { time > $0 } ?? false }
        defer { runs.cancel() }
        var decoded = Decoded()
        var inRun = 0
        for (index, packet) in packets.enumerated() {
            let after = blindToLeadingPictures ? []
                : packets[(index + 1)...].prefix { !$0.isKeyframe }.prefix(SourceFrameStage.lookahead).map { $0.presentationTime! }
            if inRun >= RunDecoders.runLength, packet.isKeyframe, RunDecoders.mayStartRun(
                at: times[index], before: Array(times[max(0, index - 32)..<index]), after: after) {
                try runs.startRun()
                decoded.runs += 1
                inRun = 0
            }
            inRun += 1
            guard try runs.send(try packet.clone(), skipping: skipping(index)) else { break }
        }
        decoded.damage = try runs.finish()
        decoded.decodedCount = statistics.decodedFrames
        output.finish()
        while let item = try output.pop() {
            guard case .frame(let frame, let time) = item else { continue }
            decoded.pictures.append((time, digest(frame)))
        }
        return decoded
    }

    /// FNV-1a over the visible samples of an 8-bit 4:2:0 picture's three planes.
    static func digest(_ frame: Frame) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for plane in 0..<3 {
            let (width, height) = plane == 0 ? (frame.width, frame.height) : ((frame.width + 1) / 2, (frame.height + 1) / 2)
            guard let data = frame.planeData(plane) else { continue }
            for row in 0..<height {
                let line = data + row * frame.lineSize(plane: plane)
                for column in 0..<width { hash = (hash ^ UInt64(line[column])) &* 0x100_0000_01b3 }
            }
        }
        return hash
    }

    /// The same pictures at the same times, the same samples unless `samples` is false, the
    /// same damage.
    static func expectSame(_ dealt: Decoded, _ serial: Decoded, _ label: String, samples: Bool = true) {
        #expect(dealt.pictures.count == serial.pictures.count, "\(label): \(dealt.pictures.count) pictures, one decoder \(serial.pictures.count)")
        #expect(dealt.pictures.map(\.time) == serial.pictures.map(\.time), "\(label): times differ")
        let differing = zip(dealt.pictures, serial.pictures).filter { $0.digest != $1.digest }.count
        #expect(!samples || differing == 0, "\(label): \(differing) pictures differ")
        #expect(dealt.damage?.message == serial.damage?.message, "\(label): \(dealt.damage?.message ?? "no damage")")
    }

    @Test func lanesHandOnWhatOneDecoderDecodes() throws {
        let folder = try FixtureCache.shared.scratchFolder("run-decoders")
        let closed = try VideoVerificationTests.movie("closed.mp4", x264: "open-gop=0", in: folder)
        let serial = try Self.decode(closed, lanes: 1)
        #expect(serial.pictures.count == 480)
        #expect(serial.runs == 11, "a run at every third keyframe (45 packets)")
        for lanes in [2, 3] {
            Self.expectSame(try Self.decode(closed, lanes: lanes), serial, "\(lanes) lanes")
        }
        // Every third picture needed: the others' non-reference pictures skipped, the rest dropped.
        let sparse = try Self.decode(closed, lanes: 1) { $0 % 3 == 0 ? .none : .nonReference }
        #expect(sparse.pictures.count == 160)
        Self.expectSame(try Self.decode(closed, lanes: 2) { $0 % 3 == 0 ? .none : .nonReference }, sparse,
                        "2 lanes, every third picture")
    }

    @Test func openGOPsAreNotCutWhereLeadingPicturesLean() throws {
        let folder = try FixtureCache.shared.scratchFolder("run-decoders-open")
        // Keyframes in a B-frame's place: 31 of the 32 have leading pictures, which come after
        // them in decoding order and lean on the pictures before them.
        let open = try VideoVerificationTests.movie("open.mp4", x264: "open-gop=1:b-adapt=0:bframes=3", in: folder)
        let serial = try Self.decode(open, lanes: 1)
        let dealt = try Self.decode(open, lanes: 2)
        #expect(serial.pictures.count == 480)
        #expect(serial.damage == nil)
        Self.expectSame(dealt, serial, "open GOP, 2 lanes")
        #expect(dealt.runs == 1, "nowhere to cut")
        // Cut there anyway, and the leading pictures are lost or damaged.
        let blind = try Self.decode(open, lanes: 2, blindToLeadingPictures: true)
        let differing = zip(blind.pictures, serial.pictures).filter { $0.digest != $1.digest }.count
        print("open GOP cut blindly: \(blind.runs) runs, \(blind.pictures.count) pictures, \(differing) differ, "
              + (blind.damage?.message ?? "no damage"))
        #expect(blind.runs > 5)
        #expect(blind.pictures.count < 480 || blind.damage != nil || differing > 0)
    }

    @Test func damageIsCountedAcrossLanes() throws {
        let folder = try FixtureCache.shared.scratchFolder("run-decoders-damage")
        let spoiled = try VideoVerificationTests.spoiled(
            try VideoVerificationTests.movie("clean.mp4", x264: "open-gop=0", in: folder), in: folder)
        let serial = try Self.decode(spoiled, lanes: 1)
        let damage = try #require(serial.damage)
        #expect(damage.packets >= 12, "\(damage.message)")
        // Concealment patches a broken picture from the one before it, which a run's decoder
        // (starting at a keyframe) may not have had: the patched samples may differ, the
        // pictures, their times and the damage found may not.
        Self.expectSame(try Self.decode(spoiled, lanes: 2), serial, "spoiled, 2 lanes", samples: false)
    }

    /// A lane beyond the first holds about 14 pictures: fewer lanes for larger pictures.
    @Test func lanesFitTheirMemory() {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #expect(RunDecoders.laneCount(width: 1280, height: 720, pixelFormat: "yuv420p") == min(4, cores))
        #expect(RunDecoders.laneCount(width: 1920, height: 1080, pixelFormat: "yuv420p") == min(2, cores))
        #expect(RunDecoders.laneCount(width: 1920, height: 1080, pixelFormat: "yuv422p10le") == 1)
        #expect(RunDecoders.laneCount(width: 3840, height: 2160, pixelFormat: "yuv420p") == 1)
    }

    @Test func stopsAfterTheLastSlot() throws {
        let folder = try FixtureCache.shared.scratchFolder("run-decoders-stop")
        let closed = try VideoVerificationTests.movie("closed.mp4", x264: "open-gop=0", in: folder)
        let last = MediaTime(seconds: Rational(3))
        let dealt = try Self.decode(closed, lanes: 2, last: last)
        // The pictures up to 3 s and the first one after it, nothing later.
        #expect(dealt.pictures.map(\.time) == (0...181).map { MediaTime(seconds: Rational(Int64($0), 60)) })
        Self.expectSame(dealt, try Self.decode(closed, lanes: 1, last: last), "stopped, 2 lanes")
    }
}
