import Foundation
import SlomoCore
@testable import SlomoExport
import SlomoMedia
import SlomoTestSupport
import Testing

/// Reference B pictures left undecoded by `H264SkipPlan`: every wanted picture comes out
/// exactly as when every reference is decoded (same times, same samples, no damage), across
/// the ways x264 builds its references, and the decoders decode fewer pictures where the plan
/// finds some to leave out.
@Suite struct H264SkipPlanTests {
    /// 4 s of a 120 fps test pattern, 320×180, encoded by x264 with `options`.
    static func movie(_ name: String, _ options: [String], in folder: URL) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try runChecked("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=120", "-t", "4",
                                  "-c:v", "libx264"] + options + ["-pix_fmt", "yuv420p", path])
        return path
    }

    /// What each packet is sent with when the pictures shown at `wanted(display index)` are
    /// needed: as the export's `GOPSkipPlanner` plans it, GOP by GOP, or (`planned` false)
    /// skipping only non-reference pictures.
    static func skipping(_ path: String, planned: Bool, wanted: (Int) -> Bool) throws -> [Decoder.PictureSkipping] {
        let demuxer = try Demuxer(path: path)
        let video = try #require(demuxer.file.videoStream)
        demuxer.select(streams: [video.index])
        var reader = demuxer.extradata(of: video.index).withUnsafeBytes { H264HeaderReader(extradata: $0) }
        var ahead: [ReadAheadPacket] = []
        while let packet = try demuxer.read() {
            let time: MediaTime = try #require(packet.presentationTime)
            ahead.append(ReadAheadPacket(packet: packet, time: time,
                                         picture: planned ? reader.references(in: packet.data) : nil))
        }
        let displayIndex = Dictionary(uniqueKeysWithValues: ahead.compactMap(\.time).sorted().enumerated().map { ($1, $0) })
        func needed(_ time: MediaTime, _: [MediaTime]) -> Bool { wanted(displayIndex[time]!) }
        var result: [Decoder.PictureSkipping] = []
        var sent: [MediaTime] = []
        while !ahead.isEmpty {
            GOPSkipPlanner.plan(&ahead, sent: sent, atEnd: true, needed: needed)
            let head = ahead.removeFirst()
            let time = try #require(head.time)
            result.append(head.plannedSkipping ?? (needed(time, []) ? .none : .nonReference))
            sent.append(time)
        }
        return result
    }

    /// Decodes `path` on `lanes` with and without the plan and holds the plan to the same
    /// pictures; returns the pictures decoded without and with it.
    static func expectPlanKeepsPictures(_ path: String, lanes: Int = 1, _ label: String,
                                        wanted: (Int) -> Bool) throws -> (full: Int, planned: Int) {
        let plain = try skipping(path, planned: false, wanted: wanted)
        let plan = try skipping(path, planned: true, wanted: wanted)
        let reference = try RunDecodersTests.decode(path, lanes: 1) { plain[$0] }
        let decoded = try RunDecodersTests.decode(path, lanes: lanes) { plan[$0] }
        #expect(reference.damage == nil, "\(label): \(reference.damage?.message ?? "")")
        #expect(decoded.damage == nil, "\(label): \(decoded.damage?.message ?? "")")
        #expect(reference.pictures.count == plain.filter { $0 == .none }.count, "\(label)")
        RunDecodersTests.expectSame(decoded, reference, label)
        let left = plan.filter { $0 == .bidirectional }.count
        print("\(label): \(left) references left out, \(reference.decodedCount) → \(decoded.decodedCount) decoded")
        #expect(decoded.decodedCount <= reference.decodedCount - left, "\(label)")
        return (reference.decodedCount, decoded.decodedCount)
    }

    /// Every 4th picture (120 → 30 fps at 1x), then also every picture of a slowed stretch.
    static let quarter: @Sendable (Int) -> Bool = { $0 % 4 == 0 }
    static let quarterAndSection: @Sendable (Int) -> Bool = { $0 % 4 == 0 || (200..<260).contains($0) }

    /// The bench clip's encoding (ultrafast, 3 B-frames, pyramid): P pictures predict only from
    /// P pictures, so at 1x every pyramid middle picture is left out and half the decoding goes.
    @Test func pyramidMiddlesAreLeftOutAt1x() throws {
        let folder = try FixtureCache.shared.scratchFolder("skip-plan-pyramid")
        let path = try Self.movie("pyramid.mp4", ["-preset", "ultrafast", "-bf", "3", "-g", "120"], in: folder)
        let sparse = try Self.expectPlanKeepsPictures(path, "ultrafast pyramid, every 4th", wanted: Self.quarter)
        // 480 pictures in 4 GOPs, each I, P and B pictures in groups of 4 (P, middle B, 2 B)
        // and a shorter group at its end: only the 124 I and P pictures remain of the 244
        // references and wanted pictures.
        let intraOrPredicted = try runChecked("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "frame=pict_type",
                                                          "-of", "csv=p=0", path]).standardOutput
            .split(separator: "\n").filter { $0 != "B" }.count
        #expect(intraOrPredicted == 124)
        #expect(sparse.full == 244)
        #expect(sparse.planned == intraOrPredicted)
        let section = try Self.expectPlanKeepsPictures(path, "ultrafast pyramid, with a section",
                                                       wanted: Self.quarterAndSection)
        #expect(section.planned < section.full - 80)
        _ = try Self.expectPlanKeepsPictures(path, lanes: 2, "ultrafast pyramid, 2 lanes", wanted: Self.quarterAndSection)
    }

    /// x264's slower presets: several references, weighted P prediction, P pictures that may
    /// predict from the pyramid's middle pictures, many slices: whatever the plan leaves out,
    /// the wanted pictures stay exact.
    @Test(arguments: [
        ["-preset", "medium", "-bf", "3", "-g", "120"],
        ["-preset", "slow", "-refs", "5", "-bf", "4", "-g", "60"],
        ["-preset", "ultrafast", "-bf", "3", "-g", "120", "-x264-params", "slices=4"],
        ["-preset", "veryfast", "-bf", "2", "-g", "120", "-x264-params", "b-pyramid=none"],
    ])
    func wantedPicturesStayExact(options: [String]) throws {
        let folder = try FixtureCache.shared.scratchFolder("skip-plan")
        let path = try Self.movie("movie.mp4", options, in: folder)
        let label = options.joined(separator: " ")
        _ = try Self.expectPlanKeepsPictures(path, "\(label), every 4th", wanted: Self.quarter)
        _ = try Self.expectPlanKeepsPictures(path, "\(label), with a section", wanted: Self.quarterAndSection)
        _ = try Self.expectPlanKeepsPictures(path, "\(label), every 3rd", wanted: { $0 % 3 == 1 })
    }

    /// Open GOPs end at keyframes that are not IDR pictures: nothing is planned.
    @Test func openGOPsAreNotPlanned() throws {
        let folder = try FixtureCache.shared.scratchFolder("skip-plan-open")
        let path = try Self.movie("open.mp4", ["-preset", "ultrafast", "-bf", "3", "-g", "60",
                                              "-x264-params", "open-gop=1"], in: folder)
        let plan = try Self.skipping(path, planned: true, wanted: Self.quarter)
        #expect(!plan.contains(.bidirectional))
        _ = try Self.expectPlanKeepsPictures(path, "open GOP", wanted: Self.quarter)
    }
}
