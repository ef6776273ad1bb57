import Foundation
import Testing
@testable import SlomoCore

@Suite struct RateAndRangeTests {
    func t(_ value: Int64, _ scale: Int64 = 1) -> MediaTime { MediaTime(value: value, timescale: scale) }

    @Test func ratesAreExactAndBounded() throws {
        #expect(try Rate(parsing: "0.25") == Rate(parsing: "1/4"))
        #expect(try Rate(parsing: "0.25").hashValue == Rate(parsing: "1/4").hashValue)
        #expect(Rate(0.25).stretch == Rational(4))
        #expect(Rate(2) > Rate(0.5))
        #expect(try Rate(Rational(1, 32)) == .minimum && Rate(Rational(32)) == .maximum)
        #expect(try Rate(parsing: "1/3").description == "1/3" && Rate(0.125).description == "0.125")
        #expect(throws: TimeModelError(.nonPositiveRate, "rate 0 must be greater than 0")) { try Rate(Rational(0)) }
        #expect(throws: TimeModelError(.nonPositiveRate, "rate -1/2 must be greater than 0")) { try Rate(Rational(-1, 2)) }
        #expect(throws: TimeModelError(.rateOutOfRange, "rate 33 is outside the allowed 1/32 … 32")) { try Rate(Rational(33)) }
        #expect(throws: TimeModelError(.rateOutOfRange, "rate 1/33 is outside the allowed 1/32 … 32")) { try Rate(Rational(1, 33)) }
        #expect(throws: TimeModelError(.unparseable, "expected a rate such as 0.25 or 1/4", subject: "rate 'quick'")) {
            try Rate(parsing: "quick")
        }
        let decoded = try JSONDecoder().decode([Rate].self, from: Data(#"["1/3", 0.25]"#.utf8))
        #expect(decoded == [try Rate(parsing: "1/3"), 0.25])
        #expect(String(decoding: try JSONEncoder().encode([try Rate(parsing: "1/3")]), as: UTF8.self) == #"["1\/3"]"#)
    }

    @Test func rangesAreHalfOpen() {
        let range = TimeRange(start: t(2), end: t(4))
        #expect(range.duration == t(2))
        #expect(range.contains(t(2)) && range.contains(t(7, 2)) && !range.contains(t(4)))
        #expect(!range.overlaps(TimeRange(start: t(4), end: t(5))))
        #expect(range.overlaps(TimeRange(start: t(3), end: t(5))))
        #expect(range.intersection(TimeRange(start: t(3), end: t(5))) == TimeRange(start: t(3), end: t(4)))
        #expect(range.intersection(TimeRange(start: t(4), end: t(5))) == nil)
        #expect(TimeRange(MediaTime.seconds(2) ..< .seconds(4.5)) == TimeRange(start: t(2), end: t(9, 2)))
        #expect(range.shifted(by: t(1)) == TimeRange(start: t(3), end: t(5)))
        #expect(range.description == "2-4")
        #expect(MediaTime.seconds(0.3) == t(3, 10))
    }

    @Test func decodingRejectsImpossibleTimes() throws {
        let range = TimeRange(start: t(1, 3), duration: t(2))
        #expect(try JSONDecoder().decode(TimeRange.self, from: JSONEncoder().encode(range)) == range)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(TimeRange.self, from: Data(#"{"start":{"value":0,"timescale":1},"duration":{"value":-1,"timescale":1}}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(MediaTime.self, from: Data(#"{"value":1,"timescale":0}"#.utf8))
        }
    }

    @Test func algorithmAndFrameChoiceNames() throws {
        #expect(TimePitchAlgorithm.allCases.map(\.rawValue) == ["spectral", "time-domain", "low-latency", "varispeed"])
        #expect(try TimePitchAlgorithm(parsing: "low-latency") == .lowLatency)
        #expect(FrameChoice.allCases.map(\.rawValue) == ["nearest", "blend", "interpolate", "auto"])
        #expect(throws: TimeModelError(.invalidValue, "unknown frame choice 'smooth'; expected nearest, blend, interpolate, auto")) {
            try FrameChoice(parsing: "smooth")
        }
    }

    @Test func sectionDesignSketch() throws {
        let section = try Section(.seconds(2) ..< .seconds(4), rate: 0.25, ramp: .seconds(0.3))
        #expect(section.description == "2-4x0.25:ramp=0.3")
        // Named by its syntax, in the message and as data.
        #expect(throws: TimeModelError(.rampTooLong, "ramps of 1.5 s + 1.5 s are longer than the section's 2 s",
                                       section: .syntax("2-4x0.25:ramp=1.5"))) {
            try Section(.seconds(2) ..< .seconds(4), rate: 0.25, ramp: .seconds(1.5))
        }
        #expect(throws: TimeModelError.self) { try Section(.seconds(2) ..< .seconds(2), rate: 0.25) }
    }
}
