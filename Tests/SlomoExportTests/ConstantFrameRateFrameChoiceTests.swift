import Foundation
import SlomoCore
import SlomoExport
import SlomoMedia
import SlomoTestSupport
import Testing

/// What each frame choice puts in the slots, on a moving bar at 0.1x (3 source frames per
/// output second, so 9 of every 10 slots fall between source frames).
@Suite struct ConstantFrameRateFrameChoiceTests {
    static let lossless = VideoExportSettings(codec: .ffv1)

    static func render(_ choice: FrameChoice) throws -> (source: [[UInt8]], output: [[UInt8]]) {
        let input = try Fixture.movingBar.path
        let (output, _, _) = try CFR.export(input, sections: ["0-1x0.1"], video: VideoExportSettings(codec: .ffv1, frames: choice),
                                            fileExtension: "mkv")
        return (try CFR.pictures(input, pixelFormat: "yuv420p", width: 160, height: 120),
                try CFR.pictures(output, pixelFormat: "yuv420p", width: 160, height: 120))
    }

    @Test func nearestShowsOnlySourcePictures() throws {
        let (source, output) = try Self.render(.nearest)
        #expect(output.count == 330)    // 1 s at 0.1x = 10 s, plus 1 s at 1x: 11 s at 30 fps
        let known = Set(source)
        #expect(output.allSatisfy(known.contains))
        // Each source picture of the slow part is held for 10 slots.
        #expect(output[0] == source[0] && output[9] == source[0] && output[10] == source[1])
    }

    @Test func blendMixesTheTwoNeighbours() throws {
        let (source, output) = try Self.render(.blend)
        #expect(output.count == 330)
        let known = Set(source)
        #expect(output[0] == source[0] && output[10] == source[1])
        let mixed = output.filter { !known.contains($0) }
        #expect(mixed.count >= 250, "\(mixed.count) blended pictures")
        // Slot 5 lies halfway between source pictures 0 and 1: every luma sample lies between them.
        let (a, b, halfway) = (source[0], source[1], output[5])
        var inside = true
        for i in 0..<(160 * 120) where halfway[i] < min(a[i], b[i]) || halfway[i] > max(a[i], b[i]) { inside = false }
        #expect(inside)
        #expect(halfway != a && halfway != b)
        // Where only one of them is white, the mix is about half grey.
        let differing = (0..<(160 * 120)).filter { abs(Int(a[$0]) - Int(b[$0])) > 200 }
        #expect(!differing.isEmpty)
        #expect(differing.allSatisfy { abs(Int(halfway[$0]) - (Int(a[$0]) + Int(b[$0])) / 2) <= 2 })
    }

    @Test func interpolateMakesNewPictures() throws {
        let input = try Fixture.movingBar.path
        var phases: [String] = []
        let (output, _, result) = try CFR.export(input, sections: ["0-0.5x0.25"],
                                                 video: VideoExportSettings(codec: .ffv1, frames: .interpolate),
                                                 fileExtension: "mkv") { phases.append($0.phase) }
        #expect(result.videoFrames == 105)   // 0.5 s at 0.25x = 2 s, plus 1.5 s: 3.5 s at 30 fps
        #expect(phases.first?.contains("optical flow") == true, "\(phases.first ?? "")")
        let source = Set(try CFR.pictures(input, pixelFormat: "yuv420p", width: 160, height: 120))
        let pictures = try CFR.pictures(output, pixelFormat: "yuv420p", width: 160, height: 120)
        #expect(pictures.count == 105)
        #expect(pictures.prefix(60).contains { !source.contains($0) })
    }

    @Test func autoChoosesByEffectiveFrameRate() throws {
        let composition = try Composition(retiming: try MediaFile(path: try Fixture.flashAndBeep.path),
                                          sections: ["2-4x0.25", "5-6x0.1", "7-8x0.5:frames=blend"])
        let choices = VideoExportSettings().frameChoices(for: try composition.timeMap(), frameRate: Rational(30))
        // 240 fps: 0.25x → 60 fps effective (nearest), 0.1x → 24 (interpolate), forced blend, rate 1 nearest.
        #expect(choices == [.nearest, .nearest, .nearest, .interpolate, .nearest, .blend, .nearest])
        // interpolate only where frames are missing; a section's own choice still wins.
        let interpolated = VideoExportSettings(frames: .interpolate).frameChoices(for: try composition.timeMap(), frameRate: Rational(30))
        #expect(interpolated == [.nearest, .nearest, .nearest, .interpolate, .nearest, .blend, .nearest])
    }
}
