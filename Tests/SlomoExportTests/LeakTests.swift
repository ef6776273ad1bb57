import Foundation
import SlomoConcurrency
import SlomoCore
import SlomoExport
import SlomoMedia
import SlomoTestSupport
import Testing

/// Every packet and frame an export allocates is freed, on whichever pipeline thread it was
/// made: the threads count into the scope of the code that started the export.
@Suite struct LeakTests {
    @Test func constantFrameRateExportFreesEverything() throws {
        let counters = try LiveObjects.tracking {
            _ = try CFR.export(try Fixture.flashAndBeep60.path, sections: ["2-4x0.25"], video: VideoExportSettings(preset: "ultrafast", frames: .blend))
        }
        print("CFR export: \(counters.allocatedFrames) frames and \(counters.allocatedPackets) packets allocated, "
              + "\(counters.frames) and \(counters.packets) alive after")
        // The decode, render and encode threads' pictures were counted here: hundreds of them.
        #expect(counters.allocatedFrames > 600)
        #expect(counters.frames == 0)
        #expect(counters.packets == 0)
    }

    @Test func cancelledExportFreesEverything() throws {
        let counters = try LiveObjects.tracking {
            let composition = try Composition(retiming: try MediaFile(path: try Fixture.flashAndBeep.path), sections: ["0-10x0.25"])
            let folder = try FixtureCache.shared.scratchFolder("leak-cancel")
            let session = ExportSession(composition: composition, to: folder.appendingPathComponent("out.mp4").path,
                                        settings: ExportSettings(mode: .constantFrameRate(Rational(30)), audioAlgorithm: .varispeed),
                                        video: VideoExportSettings(preset: "ultrafast"))
            #expect(throws: ExportError.self) {
                try session.run { progress in if progress.fraction > 0.1 { session.cancel() } }
            }
        }
        print("cancelled export: \(counters.allocatedFrames) frames allocated, \(counters.frames) frames and \(counters.packets) packets alive after")
        #expect(counters.allocatedFrames > 100)
        #expect(counters.frames == 0)
        #expect(counters.packets == 0)
    }
}
