import Foundation
import SlomoCore
import SlomoExport
import SlomoMedia
import SlomoTestSupport
import Testing

/// Passthrough output of the real fixtures, judged by ffprobe and ffmpeg.
@Suite struct PassthroughTimingTests {
    static func retime(_ fixture: Fixture, _ sections: [String], extension ext: String = "mov") throws -> String {
        let input = try fixture.path
        let composition = try Composition(retiming: try MediaFile(path: input),
                                          sections: sections)
        let output = try FixtureCache.shared.scratchFolder("timing").appendingPathComponent("out.\(ext)").path
        try ExportSession(composition: composition, to: output).run()
        return output
    }

    /// The hash column of `ffmpeg -f framemd5 -c copy`: one hash per packet, in order.
    static func packetHashes(_ path: String) throws -> [String] {
        let result = try runChecked("ffmpeg", ["-v", "error", "-i", path, "-map", "0:v:0", "-c", "copy", "-f", "framemd5", "-"])
        return result.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    @Test func highFrameRateBFramesCopiedExactly() throws {
        let input = try Fixture.hfr240.path
        let output = try Self.retime(.hfr240, ["2-4x0.25"])
        let inputHashes = try Self.packetHashes(input)
        let outputHashes = try Self.packetHashes(output)
        #expect(outputHashes.count == 2400)
        #expect(outputHashes == inputHashes)

        let video = try #require(try FFprobe(output).stream("video"))
        let timeBase = try #require((video["time_base"] as? String).flatMap { Rational(decimal: $0) })
        let packets = try FFprobe.packets(output)
        #expect(packets.count == 2400)
        let dts = packets.map(\.dts)
        #expect(zip(dts.dropFirst(), dts).allSatisfy { $0 > $1 }, "DTS strictly increasing")
        #expect(packets.allSatisfy { $0.dts <= $0.pts }, "DTS ≤ PTS")

        let pts = packets.map(\.pts).sorted()
        let intervals = zip(pts.dropFirst(), pts).map { MediaTime(ticks: $0 - $1, timeBase: timeBase) }
        let starts = pts.map { MediaTime(ticks: $0, timeBase: timeBase) }
        for (start, interval) in zip(starts, intervals) {
            let inside = start >= MediaTime(seconds: Rational(2)) && start < MediaTime(seconds: Rational(10))
            #expect(interval == MediaTime(seconds: Rational(1, inside ? 60 : 240)), "interval after \(start)")
        }
        let duration = try #require((video["duration"] as? String).flatMap(Double.init))
        #expect(abs(duration - 16) <= 1.0 / 240)
        #expect(try runChecked("ffmpeg", ["-v", "error", "-i", output, "-f", "null", "-"]).standardError.isEmpty)
    }

    /// A smooth ramp into 0.25 and out again on the 60 fps clip: every copied packet's time
    /// is the closed-form map's (1/rate = k0 + Δk·(3u² − 2u³), output its integral
    /// k0·x + Δk·L·(u³ − u⁴/2)) within a microsecond.
    @Test func easedRampTimesEveryPacketOnTheClosedFormMap() throws {
        let output = try Self.retime(.videoOnly, ["0.5-1.5x0.25:ramp=0.4:ease=smooth"])
        let video = try #require(try FFprobe(output).stream("video"))
        let timeBase = try #require((video["time_base"] as? String).flatMap { Rational(decimal: $0) })
        let inputTimeBase = try #require((try FFprobe(try Fixture.videoOnly.path).stream("video")?["time_base"] as? String)
            .flatMap { Rational(decimal: $0) })
        let sources = try FFprobe.packets(try Fixture.videoOnly.path).map { Double($0.pts) * inputTimeBase.doubleValue }.sorted()
        let outputs = try FFprobe.packets(output).map { Double($0.pts) * timeBase.doubleValue }.sorted()
        #expect(outputs.count == sources.count && sources.count == 120)
        func smooth(_ x: Double, from k0: Double, to k1: Double) -> Double {
            let u = x / 0.4
            return k0 * x + (k1 - k0) * 0.4 * (u * u * u - u * u * u * u / 2)
        }
        let rampOutput = smooth(0.4, from: 1, to: 4)
        func expected(_ s: Double) -> Double {
            switch s {
            case ..<0.5: return s
            case ..<0.9: return 0.5 + smooth(s - 0.5, from: 1, to: 4)
            case ..<1.1: return 0.5 + rampOutput + (s - 0.9) * 4
            case ..<1.5: return 0.5 + rampOutput + 0.8 + smooth(s - 1.1, from: 4, to: 1)
            default: return 0.5 + 2 * rampOutput + 0.8 + (s - 1.5)
            }
        }
        let start = sources[0]
        let errors = zip(sources, outputs).map { abs(($1 - outputs[0]) - expected($0 - start)) }
        print("smooth ramp passthrough: \(errors.count) packets, worst \(String(format: "%.3f", errors.max()! * 1e6)) µs "
              + "from the closed-form map (time base \(timeBase))")
        #expect(errors.allSatisfy { $0 <= 1e-6 })
    }

    @Test func hybridLogGammaKeepsColourAndDepth() throws {
        let output = try Self.retime(.hlg, ["0.2-0.6x0.5"])
        let original = try #require(try MediaFile(path: try Fixture.hlg.path).videoStream)
        let copy = try #require(try MediaFile(path: output).videoStream)
        #expect(copy.video?.color == original.video?.color)
        #expect(copy.video?.bitDepth == 10 && copy.video?.hdr?.kind == .hlg)
        #expect(copy.codec.tag == "hvc1")
    }

    @Test func progressStreamEndsAtOneWithTheFileWritten() async throws {
        let composition = try Composition(retiming: try MediaFile(path: try Fixture.videoOnly.path), sections: ["0.5-1.5x0.5"])
        let output = try FixtureCache.shared.scratchFolder("progress-stream").appendingPathComponent("out.mp4").path
        var fractions: [Double] = []
        for try await progress in ExportSession(composition: composition, to: output).progressUpdates() {
            fractions.append(progress.fraction)
        }
        #expect(fractions.count >= 2)
        #expect(fractions == fractions.sorted())
        #expect(fractions.last == 1)
        #expect(try MediaFile(path: output).videoStream?.frameCount == 120)
    }

    @Test func dolbyVisionSurvivesIntoMP4() throws {
        let input = try DolbyVisionFixture.path
        let composition = try Composition(retiming: try MediaFile(path: input), sections: ["0.1-0.3x0.5"])
        let output = try FixtureCache.shared.scratchFolder("dv-retime").appendingPathComponent("out.mp4").path
        try ExportSession(composition: composition, to: output).run()
        let hdr = try #require(try MediaFile(path: output).videoStream?.video?.hdr)
        #expect(hdr.kind == .dolbyVision && hdr.dolbyVisionProfile == 8)
    }

    @Test func rotationSurvives() throws {
        let output = try Self.retime(.rotated, ["0.5-1x0.5"])
        #expect(try MediaFile(path: output).videoStream?.video?.rotation == 90)
    }

    @Test func ntscTimingStaysExact() throws {
        let output = try Self.retime(.ntsc, ["1-2x0.5"], extension: "mp4")
        let video = try #require(try MediaFile(path: output).videoStream)
        let packets = try FFprobe.packets(output).map(\.pts).sorted()
        let intervals = Set(zip(packets.dropFirst(), packets).map { MediaTime(ticks: $0 - $1, timeBase: video.timeBase) })
        #expect(intervals == [MediaTime(seconds: Rational(1001, 30000)), MediaTime(seconds: Rational(2002, 30000))])
    }

    @Test func videoOnlyWorks() throws {
        let output = try Self.retime(.videoOnly, ["0.5-1.5x0.5"], extension: "mp4")
        let file = try MediaFile(path: output)
        #expect(file.audioStreams.isEmpty)
        #expect(file.videoStream?.frameCount == 120)
        #expect(abs((file.videoStream?.duration?.doubleSeconds ?? 0) - 3) < 0.001)
    }

    @Test func audioOnlyInputGivesAnAudioOnlyMovie() throws {
        let output = try Self.retime(.audioOnly, ["0.5-1x0.5"])
        let probe = try FFprobe(output)
        #expect(probe.streams.count == 1 && probe.stream("audio") != nil)
        let duration = try #require((probe.stream("audio")?["duration"] as? String).flatMap { Double($0) })
        #expect(abs(duration - 2.5) < 0.03)
    }
}
