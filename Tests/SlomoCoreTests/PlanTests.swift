import Foundation
import Testing
@testable import SlomoCore

@Suite struct PlanTests {
    func t(_ value: Int64, _ scale: Int64 = 1) -> MediaTime { MediaTime(value: value, timescale: scale) }

    func plan(_ sections: [String], cfr: Rational? = nil) throws -> Plan {
        let composition = try Composition(source: "clip.mov", duration: t(10), frameRate: Rational(240), sections: sections)
        return try Plan(composition.timeMap(), cfrFrameRate: cfr, defaultAudio: .spectral)
    }

    @Test func tenSecondsAt240WithAQuarterSpeedSection() throws {
        let passthrough = try plan(["2-4x0.25"])
        #expect(passthrough.outputDuration == .seconds(16))
        #expect(passthrough.segments.count == 3)
        let middle = passthrough.segments[1]
        #expect(middle.sourceStart == .seconds(2) && middle.sourceEnd == .seconds(4) && middle.outputStart == .seconds(2)
                && middle.outputEnd == .seconds(10))
        #expect(middle.rate == 0.25 && middle.rateText == "0.25" && middle.rampFrom == nil)
        #expect(middle.effectiveFrameRate == 60 && middle.sourceFrames == 480 && middle.outputFrames == nil)
        #expect(middle.audio == .spectral && middle.section == 0)
        #expect(passthrough.sourceFrames == 2400 && passthrough.outputFrames == nil)

        let cfr = try plan(["2-4x0.25"], cfr: Rational(30))
        #expect(cfr.outputFrames == 480)
        #expect(cfr.segments.map(\.outputFrames) == [60, 240, 180])
        #expect(cfr.cfrFrameRate == "30")
    }

    @Test func rampsAndSectionAudio() throws {
        let plan = try plan(["2-4x0.25:ramp=0.5:audio=varispeed"], cfr: Rational(30000, 1001))
        #expect(plan.segments.map(\.rateText) == ["1", "1→0.25", "0.25", "0.25→1", "1"])
        #expect(plan.segments[1].rampFrom == 1 && plan.segments[1].rampTo == 0.25 && plan.segments[1].rate == 0.4)
        #expect(plan.segments[1].effectiveFrameRate == 96)
        #expect(plan.segments.map(\.audio) == [.spectral, .varispeed, .varispeed, .varispeed, .spectral])
        #expect(plan.segments.compactMap(\.outputFrames).reduce(0, +) == plan.outputFrames)
        #expect(plan.segments.compactMap(\.sourceFrames).reduce(0, +) == 2400)
    }

    @Test func jsonIsStableAndReadsBack() throws {
        let plan = try plan(["2-4x0.25"], cfr: Rational(30))
        let json = try plan.jsonText()
        #expect(try JSONDecoder().decode(Plan.self, from: Data(json.utf8)) == plan)
        #expect(try plan.jsonText() == json)
        #expect(json.contains("\"outputDuration\" : {\n    \"exact\" : \"16\",\n    \"seconds\" : 16\n  }"), "\(json)")
        #expect(json.contains("\"effectiveFrameRate\" : 60"))
    }

    @Test func sectionErrorsNameTheText() {
        #expect {
            _ = try plan(["2-4x0.25", "3-5x2"])
        } throws: { error in
            (error as? TimeModelError)?.description == "section '3-5x2': overlaps section '2-4x0.25'"
        }
        #expect {
            _ = try plan(["8-12x2"])
        } throws: { error in
            (error as? TimeModelError)?.description
                == "section '8-12x2': ends at 12 s, past the clip's end at 10 s (the clip lasts 10 s)"
        }
    }
}
