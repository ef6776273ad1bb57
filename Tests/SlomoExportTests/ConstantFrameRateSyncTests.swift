import Foundation
import SlomoCore
import SlomoExport
import SlomoMedia
import SlomoTestSupport
import Testing

/// Flashes land on the output grid where the map sends them; beeps stay within half an output
/// frame of their flashes. Varispeed audio has sample-exact onsets, so it measures the video
/// grid; spectral (the default, slomo's phase-gradient engine) keeps a beep's onset on its
/// mapped time inside slow sections too.
@Suite struct ConstantFrameRateSyncTests {
    @Test(arguments: [(FrameChoice.nearest, TimePitchAlgorithm.varispeed), (.blend, .varispeed), (.nearest, .spectral)])
    func flashesAndBeepsStayTogether(_ choice: FrameChoice, audio: TimePitchAlgorithm) throws {
        let sections = ["2-4x0.25", "6-8x0.5"]
        let (output, _, _) = try CFR.export(try Fixture.longFlashAndBeep.path, sections: sections,
                                            video: VideoExportSettings(preset: "ultrafast", frames: choice), audio: audio)
        let map = try Composition(retiming: try MediaFile(path: try Fixture.longFlashAndBeep.path), sections: sections)
            .clips[0].timeMap()
        let frame = 1.0 / 30
        let (flashes, beeps, _, worstFlash) = try CFR.flashesAndBeeps(output, map: map, frame: frame)
        var worstBeep = 0.0
        for flash in flashes {
            guard let beep = beeps.min(by: { abs($0 - flash) < abs($1 - flash) }) else { continue }
            worstBeep = max(worstBeep, abs(beep - flash))
            #expect(abs(beep - flash) <= frame / 2, "beep at \(beep) s, flash at \(flash) s (\(choice), \(audio))")
        }
        print("cfr sync \(choice) \(audio): worst flash offset \(String(format: "%.3f", worstFlash * 1000)) ms, worst beep-to-flash \(String(format: "%.3f", worstBeep * 1000)) ms")
    }
}
