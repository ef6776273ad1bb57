import Foundation
import PropertyBased
import Testing
@testable import SlomoCore

/// `Rational(decimal:)`, `Rational(frameRate:)` and Rational's JSON form: every form they
/// accept and refuse, each read exactly (never through floating point).
@Suite struct RationalParsingTests {
    @Test(arguments: [
        ("3", Rational(3)), ("0", Rational(0)), ("-0", Rational(0)), ("+7", Rational(7)), ("007", Rational(7)),
        ("2.5", Rational(5, 2)), ("-0.25", Rational(-1, 4)), ("+0.25", Rational(1, 4)), (".5", Rational(1, 2)),
        ("-.5", Rational(-1, 2)), ("5.", Rational(5)), ("00.50", Rational(1, 2)), ("0.1", Rational(1, 10)),
        ("29.97", Rational(2997, 100)), ("1/4", Rational(1, 4)), ("2/4", Rational(1, 2)), ("30000/1001", Rational(30000, 1001)),
        ("-1/4", Rational(-1, 4)), ("+1/4", Rational(1, 4)), ("1/-4", Rational(-1, 4)), ("-1/-4", Rational(1, 4)), ("0/5", Rational(0)),
        (" 1/4 ", Rational(1, 4)), ("\t2.5\t", Rational(5, 2)),
        ("123456789012345678", Rational(123_456_789_012_345_678)),
        ("0.000000000000000001", Rational(1, 1_000_000_000_000_000_000)), ("0.333333333333333333", Rational(333_333_333_333_333_333, 1_000_000_000_000_000_000)),
        ("00000000000000000000001", Rational(1)), ("0.000003814697265625", Rational(1, 262_144)),
        ("1234567890123456789", Rational(1_234_567_890_123_456_789)), ("1.000000000000000000", Rational(1)),
        ("1.000003814697265625", Rational(262_145, 262_144)), ("12345678901.23456789", Rational(1_234_567_890_123_456_789, 100_000_000)),
        ("2." + String(repeating: "0", count: 60), Rational(2)), ("-9223372036854775808", Rational(Int64.min)),
        ("9223372036854775807/9223372036854775807", Rational(1)),
        ("9223372036854775806/4", Rational(4_611_686_018_427_387_903, 2)),
        ("-9223372036854775807/1", Rational(-9_223_372_036_854_775_807)),
    ])
    func acceptedDecimalsAndFractions(text: String, value: Rational) {
        #expect(Rational(decimal: text) == value)
    }

    /// Lowest terms with a positive denominator, whatever the text's signs and factors.
    @Test func parsedValuesAreInLowestTerms() throws {
        for text in ["2/4", "-6/-8", "6/-8", "0.50", "-0.250", "0/-5", "10/5"] {
            let value = try #require(Rational(decimal: text))
            #expect(value.denominator > 0, "\(text)")
            #expect(Rational.gcd(value.numerator, value.denominator) == 1, "\(text)")
        }
    }

    @Test(arguments: [
        "", " ", ".", "-", "+", "-.", "+.", "--1", "+-1", "-+1", "1-", "1.2.3", "1..2", "1,5", "1e3", "1E-3", "0x10",
        "inf", "nan", "fast", "½", "١", "1 000", "1 / 4", "1/", "/4", "/", "1/0", "0/0", "-1/0", "1/+4", "1/2/3", "1.5/2",
        "1/2.5", "1/4x", "x1/4",
        // Beyond 64 bits in lowest terms (or beyond 128 while read).
        "9223372036854775808", "-9223372036854775809", "0.0000000000000000001", "18446744073709551616.5",
        String(repeating: "9", count: 40), "0." + String(repeating: "0", count: 38) + "1",
        "9223372036854775808/1", "99999999999999999999/3", "-9223372036854775808/-1", "1/-9223372036854775808",
    ])
    func refusedDecimalsAndFractions(text: String) {
        #expect(Rational(decimal: text) == nil)
    }

    /// A decimal is exact: 0.1 is 1/10 and 0.3 − 0.1 − 0.2 is 0, which `Double` cannot say.
    @Test func decimalsAreExact() throws {
        let tenth = try #require(Rational(decimal: "0.1")), fifth = try #require(Rational(decimal: "0.2"))
        let threeTenths = try #require(Rational(decimal: "0.3"))
        #expect(threeTenths - tenth - fifth == Rational(0))
        #expect(try #require(Rational(decimal: "0.333333333333333333")) != Rational(1, 3))
        let twoAndAHalf = try #require(Rational(decimal: "2.50"))
        #expect(twoAndAHalf == Rational(decimal: "5/2"))
        #expect(try #require(Rational(decimal: "0.000000000000000001")).denominator == 1_000_000_000_000_000_000)
    }

    /// What `exactDecimal` writes and `description` prints reads back as the same value; only
    /// a value whose denominator has a prime factor other than 2 and 5 has no decimal form.
    @Test func writtenFormsReadBack() async {
        let denominators: [Int64] = [1, 2, 3, 4, 5, 7, 8, 10, 16, 25, 30, 48, 125, 240, 1001, 1024, 30000, 48000, 90000, 1_000_000,
                                     262_144, 3_814_697_265_625]
        await propertyCheck(count: 200, input: Gen.int(in: -10_000_000...10_000_000), Gen.int(in: 0..<denominators.count)) { n, d in
            let value = Rational(Int64(n), denominators[d])
            #expect(Rational(decimal: value.description) == value, "\(value)")
            if let decimal = Rational.exactDecimal(value) {
                #expect(Rational(decimal: decimal) == value, "\(value) written as \(decimal)")
                #expect(!decimal.contains("/"))
            } else {
                var rest = value.denominator
                for prime: Int64 in [2, 5] { while rest % prime == 0 { rest /= prime } }
                #expect(rest != 1, "\(value) has a finite decimal form")
            }
        }
    }

    @Test func frameRateParsing() {
        #expect(Rational(frameRate: "29.97") == Rational(30000, 1001))
        #expect(Rational(frameRate: "59.94") == Rational(60000, 1001))
        #expect(Rational(frameRate: "23.976") == Rational(24000, 1001))
        #expect(Rational(frameRate: "30000/1001") == Rational(30000, 1001))
        #expect(Rational(frameRate: "30") == Rational(30))
        #expect(Rational(frameRate: "12.5") == Rational(25, 2))
        #expect(Rational(frameRate: "fast") == nil)
    }

    /// Decimals within 0.005 of N·1000/1001 are the NTSC fraction; a fraction written out, and
    /// decimals farther off, are taken as they are.
    @Test(arguments: [
        ("119.88", Rational(120_000, 1001)), ("47.952", Rational(48000, 1001)), ("29.970", Rational(30000, 1001)),
        ("14.985", Rational(15000, 1001)), ("239.76", Rational(240_000, 1001)), ("29.98", Rational(1499, 50)),
        ("2997/100", Rational(2997, 100)), ("25", Rational(25)), ("0.5", Rational(1, 2)), ("240", Rational(240)),
        ("-29.97", Rational(-2997, 100)), (" 59.94 ", Rational(60000, 1001)),
    ])
    func ntscDecimalsAndExactRates(text: String, rate: Rational) {
        #expect(Rational(frameRate: text) == rate)
    }

    @Test(arguments: ["", "30fps", "1/0", "29,97", "1e2"])
    func refusedFrameRates(text: String) {
        #expect(Rational(frameRate: text) == nil)
    }

    /// JSON and YAML documents hold a rational as text (`"30000/1001"`, `"0.25"`) or as a whole
    /// number; it is written as the exact fraction's text.
    @Test func jsonForm() throws {
        let decoded = try JSONDecoder().decode([Rational].self, from: Data(#"["30000/1001", "0.25", "240", 240, -3, " 1/3 "]"#.utf8))
        #expect(decoded == [Rational(30000, 1001), Rational(1, 4), Rational(240), Rational(240), Rational(-3), Rational(1, 3)])
        let encoded = try JSONEncoder().encode([Rational(30000, 1001), Rational(240), Rational(-1, 4)])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["30000\/1001","240","-1\/4"]"#)
        #expect(try JSONDecoder().decode([Rational].self, from: encoded) == [Rational(30000, 1001), Rational(240), Rational(-1, 4)])
        for refused in [#"["fast"]"#, #"["1/0"]"#, #"[0.25]"#, #"[true]"#, #"[null]"#] {
            #expect(throws: DecodingError.self, "\(refused)") {
                try JSONDecoder().decode([Rational].self, from: Data(refused.utf8))
            }
        }
    }
}
