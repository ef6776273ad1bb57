import Foundation
import SlomoCore
import SlomoExport
import SlomoMedia
import SlomoTestSupport
import Testing

/// `--size 640x640` from a 1280x720 flat grey source with each scaling mode.
@Suite struct ConstantFrameRateScalingTests {
    static func render(_ scaling: OutputSettings.Scaling, input: String? = nil,
                       size: OutputSettings.Size = .init(width: 640, height: 640)) throws -> (width: Int, height: Int, luma: [UInt8]) {
        let (output, _, _) = try CFR.export(try input ?? Fixture.gray720.path, sections: ["0-0.1x0.5"],
                                            video: VideoExportSettings(preset: "ultrafast", size: size, scaling: scaling))
        let video = try #require(try FFprobe(output).stream("video"))
        let width = try #require(video["width"] as? Int), height = try #require(video["height"] as? Int)
        let first = try #require(try CFR.pictures(output, width: width, height: height).first)
        return (width, height, first)
    }

    /// Mean luma of rows `rows`.
    static func mean(_ luma: [UInt8], width: Int, rows: Range<Int>) -> Double {
        let values = rows.flatMap { row in luma[row * width ..< (row + 1) * width] }
        return Double(values.reduce(0) { $0 + Int($1) }) / Double(max(values.count, 1))
    }

    @Test func aspectLetterboxesWithBlack() throws {
        let (width, height, luma) = try Self.render(.aspect)
        #expect(width == 640 && height == 640)
        // 1280x720 → 640x360, centred: bars of 140 rows above and below.
        #expect(Self.mean(luma, width: width, rows: 0..<138) < 20)
        #expect(Self.mean(luma, width: width, rows: 502..<640) < 20)
        #expect(Self.mean(luma, width: width, rows: 142..<498) > 100)
    }

    @Test func aspectFillHasNoBars() throws {
        let (width, height, luma) = try Self.render(.aspectFill)
        #expect(width == 640 && height == 640)
        for band in stride(from: 0, to: 640, by: 64) {
            #expect(Self.mean(luma, width: width, rows: band..<(band + 64)) > 100)
        }
    }

    @Test func resizeFillsTheBox() throws {
        let (width, height, luma) = try Self.render(.resize)
        #expect(width == 640 && height == 640)
        #expect(Self.mean(luma, width: width, rows: 0..<10) > 100)
    }

    @Test func fitScalesDownKeepingAspect() throws {
        let (width, height, _) = try Self.render(.fit)
        #expect(width == 640 && height == 360)
    }

    @Test func fitNeverScalesUp() throws {
        // 320x240 into 640x640: stays 320x240.
        let (width, height, _) = try Self.render(.fit, input: try Fixture.ntsc.path)
        #expect(width == 320 && height == 240)
    }
}
