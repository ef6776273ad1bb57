import Foundation
import Testing
@testable import SlomoCore

@Suite struct MediaTimeTests {
    @Test func equalityIsByValueAcrossTimescales() {
        let half = MediaTime(value: 1, timescale: 2)
        let thousandths = MediaTime(value: 500, timescale: 1000)
        #expect(half == thousandths)
        #expect(half.hashValue == thousandths.hashValue)
        #expect(Set([half, thousandths]).count == 1)
        #expect(MediaTime(value: 1, timescale: 3) < MediaTime(value: 334, timescale: 1000))
        #expect(MediaTime(value: -1, timescale: 3) < .zero)
    }

    @Test func arithmeticIsExact() throws {
        let third = MediaTime(value: 1, timescale: 3)
        let sum = third + third + third
        #expect(sum == MediaTime(value: 1, timescale: 1))
        #expect(MediaTime(value: 1, timescale: 240) + MediaTime(value: 1, timescale: 90000)
                == MediaTime(seconds: Rational(1, 240) + Rational(1, 90000)))
        #expect(try MediaTime(value: 2, timescale: 1).divided(by: Rational(1, 4)) == MediaTime(value: 8, timescale: 1))
        #expect(try MediaTime(value: 3, timescale: 1).multiplied(by: Rational(1, 3)) == MediaTime(value: 1, timescale: 1))
        #expect(MediaTime(value: 1, timescale: 2) - MediaTime(value: 1, timescale: 3) == MediaTime(value: 1, timescale: 6))
    }

    @Test func overflowThrows() {
        let big = MediaTime(value: .max, timescale: 1)
        #expect(throws: TimeModelError.self) { try big.adding(big) }
        #expect(throws: TimeModelError.self) { try big.multiplied(by: Rational(3, 2)) }
        #expect(throws: TimeModelError.self) { try MediaTime(value: .max, timescale: 1).ticks(in: Rational(1, 90000)) }
        #expect(throws: TimeModelError.self) { try MediaTime(exactTicks: .max, timeBase: Rational(3, 1)) }
    }

    @Test func timeBaseConversionRoundsAsAsked() throws {
        let time = MediaTime(ticks: 1001, timeBase: Rational(1, 30000))      // 1001/30000 s
        #expect(time.seconds == Rational(1001, 30000))
        #expect(try time.ticks(in: Rational(1, 90000)) == 3003)
        let third = MediaTime(value: 1, timescale: 3)
        #expect(try third.ticks(in: Rational(1, 1000), rounding: .down) == 333)
        #expect(try third.ticks(in: Rational(1, 1000), rounding: .up) == 334)
        #expect(try third.ticks(in: Rational(1, 1000), rounding: .nearest) == 333)
        #expect(try (-third).ticks(in: Rational(1, 1000), rounding: .down) == -334)
        #expect(try (-third).ticks(in: Rational(1, 1000), rounding: .towardZero) == -333)
        #expect(try MediaTime(value: 1, timescale: 2).ticks(in: Rational(1, 1)) == 1)   // halves away from zero
        #expect(try MediaTime(value: -1, timescale: 2).ticks(in: Rational(1, 1)) == -1)
        #expect(throws: TimeModelError.self) { try third.ticks(in: Rational(0, 1)) }
    }

    @Test func printing() {
        #expect(MediaTime(value: 5, timescale: 2).description == "2.5")
        #expect(MediaTime(value: 2, timescale: 1).description == "2")
        #expect(MediaTime(value: 1, timescale: 3).description == "0.333333333")
        #expect(MediaTime(value: 1, timescale: 3).exactDescription == "1/3")
        #expect(MediaTime(value: 249, timescale: 4).timecode() == "00:01:02.250")
        #expect(MediaTime(value: 3_600_5, timescale: 10).timecode(fractionDigits: 1) == "01:00:00.5")
        #expect(MediaTime(value: -3, timescale: 2).timecode() == "-00:00:01.500")
        #expect(MediaTime(value: 16, timescale: 1).formattedSeconds() == "16.000")
    }

    @Test func parsing() throws {
        #expect(try MediaTime(parsing: "2.5") == MediaTime(value: 5, timescale: 2))
        #expect(try MediaTime(parsing: "00:01:02.250") == MediaTime(value: 249, timescale: 4))
        #expect(try MediaTime(parsing: "1:02.25") == MediaTime(value: 249, timescale: 4))
        #expect(try MediaTime(parsing: "f480", frameRate: Rational(240)) == MediaTime(value: 2, timescale: 1))
        #expect(try MediaTime(parsing: "f1001", frameRate: Rational(30000, 1001)) == MediaTime(value: 1001 * 1001, timescale: 30000))
        #expect(try MediaTime(parsing: "1/3") == MediaTime(value: 1, timescale: 3))
        for bad in ["", "abc", "2.5.1", "1:60", "1:2:3:4", "--1", "1e3", "f-1", "f1.5"] {
            #expect(throws: TimeModelError.self, "\(bad)") { try MediaTime(parsing: bad, frameRate: Rational(240)) }
        }
        #expect(throws: TimeModelError(.invalidValue, "a frame number needs the source frame rate, which is unknown",
                                       subject: "'f480'")) { try MediaTime(parsing: "f480") }
    }

    @Test func printedTimesParseBack() throws {
        for time in [MediaTime(value: 1, timescale: 3), MediaTime(value: 12345, timescale: 1000), MediaTime(value: -7, timescale: 8)] {
            #expect(try MediaTime(parsing: time.exactDescription) == time)
        }
    }

    @Test func codableRoundTrip() throws {
        let time = MediaTime(value: 1001, timescale: 30000)
        let copy = try JSONDecoder().decode(MediaTime.self, from: JSONEncoder().encode(time))
        #expect(copy == time && copy.timescale == 30000)
    }
}
