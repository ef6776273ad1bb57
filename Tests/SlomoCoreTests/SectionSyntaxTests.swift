import Testing
@testable import SlomoCore

@Suite struct SectionSyntaxTests {
    let clip = TimeRange(start: .zero, duration: MediaTime(value: 10, timescale: 1))

    func section(_ text: String, frameRate: Rational? = Rational(240)) throws -> Section {
        try SectionSpec(parsing: text).resolved(in: clip, frameRate: frameRate, origin: .syntax(text))
    }

    func seconds(_ value: Int64, _ scale: Int64 = 1) -> MediaTime { MediaTime(value: value, timescale: scale) }

    @Test func decimalAndFractionRatesAreTheSame() throws {
        let decimal = try section("2-4x0.25"), fraction = try section("2-4x1/4")
        #expect(decimal == fraction)
        #expect(decimal.range == TimeRange(start: seconds(2), end: seconds(4)))
        #expect(decimal.rate.value == Rational(1, 4))
    }

    @Test func timecodesFramesAndEnd() throws {
        #expect(try section("00:00:02.000-00:00:04.500x0.25").range == TimeRange(start: seconds(2), end: seconds(9, 2)))
        #expect(try section("f480-f960x0.25").range == TimeRange(start: seconds(2), end: seconds(4)))
        let toEnd = try section("8-endx2")
        #expect(toEnd.range == TimeRange(start: seconds(8), end: seconds(10)) && toEnd.rate == 2)
    }

    @Test func options() throws {
        let both = try section("2-4x0.25:ramp=0.3")
        #expect(both.rampIn == seconds(3, 10) && both.rampOut == seconds(3, 10))
        let split = try section("2-4x0.25:ramp-in=0.2:ramp-out=0.5:audio=time-domain:frames=blend")
        #expect(split.rampIn == seconds(1, 5) && split.rampOut == seconds(1, 2))
        #expect(split.audio == .timeDomain && split.frames == .blend)
        for name in ["spectral", "time-domain", "low-latency", "varispeed"] {
            #expect(try section("2-4x0.5:audio=\(name)").audio?.rawValue == name)
        }
    }

    @Test func printsCanonicalSyntaxThatParsesBack() throws {
        for text in ["2-4x0.25", "2-4x0.25:ramp=0.3", "2-4x1/3:ramp-in=0.2:ramp-out=0.5:audio=spectral:frames=auto",
                     "f480-endx2", "1/3-2x0.5"] {
            let spec = try SectionSpec(parsing: text)
            #expect(spec.description == text)
            #expect(try SectionSpec(parsing: spec.description) == spec)
        }
        #expect(try SectionSpec(parsing: "2-4x1/4:ramp-in=0.3:ramp-out=0.3").description == "2-4x0.25:ramp=0.3")
    }

    @Test(arguments: [
        ("4-2x0.5", TimeModelError.Kind.emptyRange, "section '4-2x0.5': start 4 s must be before end 2 s"),
        ("2-2x0.5", .emptyRange, "section '2-2x0.5': start 2 s must be before end 2 s"),
        ("2-4x0", .nonPositiveRate, "section '2-4x0': rate 0 would stop time; hold a frame with a freeze (--freeze T:D) instead"),
        ("2-4x-0", .nonPositiveRate, "section '2-4x-0': rate 0 would stop time; hold a frame with a freeze (--freeze T:D) instead"),
        ("2-4x-1:ramp=0.3", .invalidValue, "section '2-4x-1:ramp=0.3': a reversed section cannot ramp (its rate would pass "
            + "through 0): remove :ramp and :ease; the cut to it is instant"),
        ("2-4x-64", .rateOutOfRange, "section '2-4x-64': rate 64 is outside the allowed 1/32 … 32"),
        ("2-4x64", .rateOutOfRange, "section '2-4x64': rate 64 is outside the allowed 1/32 … 32"),
        ("2-4x1/64", .rateOutOfRange, "section '2-4x1/64': rate 0.015625 is outside the allowed 1/32 … 32"),
        ("2-4xfast", .unparseable, "section '2-4xfast': rate 'fast': expected a rate such as 0.25, 1/4 or -1 (backwards)"),
        ("two-4x1", .unparseable,
         "section 'two-4x1': 'two': expected seconds (2.5, 1.5s, 1500ms, 2m), a timecode (00:00:02.500) or a frame (f480)"),
        ("2-4", .unparseable, "section '2-4': expected START-ENDxRATE, such as 2-4x0.25"),
        ("2-4x0.5:ramp=1.5", .rampTooLong,
         "section '2-4x0.5:ramp=1.5': ramps of 1.5 s + 1.5 s are longer than the section's 2 s"),
        ("2-4x0.5:ramp=999999999999999999", .rampTooLong,
         "section '2-4x0.5:ramp=999999999999999999': ramps of 999999999999999999 s + 999999999999999999 s are longer than the section's 2 s"),
        ("2-4x0.5:ramp=abc", .unparseable, "section '2-4x0.5:ramp=abc': ramp expects a duration such as 0.3 or 300ms, got 'abc'"),
        ("2-4x0.5:speed=2", .unparseable,
         "section '2-4x0.5:speed=2': unknown option 'speed'; expected ramp, ramp-in, ramp-out, ease, audio, pitch or frames"),
        ("2-4x0.5:audio=loud", .invalidValue,
         "section '2-4x0.5:audio=loud': unknown audio algorithm 'loud'; expected spectral, time-domain, low-latency, varispeed"),
        ("2-4x0.5:ramp=0.1:ramp-in=0.2", .invalidValue, "section '2-4x0.5:ramp=0.1:ramp-in=0.2': option 'ramp-in' is given twice"),
        ("end-4x0.5", .unparseable, "section 'end-4x0.5': 'end' can only be the end of a section"),
    ])
    func badSyntax(text: String, kind: TimeModelError.Kind, message: String) {
        #expect {
            _ = try SectionSpec(parsing: text)
        } throws: { error in
            let error = error as! TimeModelError
            return error.kind == kind && error.description == message
        }
    }

    @Test func framesNeedAFrameRate() throws {
        #expect {
            _ = try section("f480-f960x0.25", frameRate: nil)
        } throws: { error in
            (error as? TimeModelError)?.description
                == "section 'f480-f960x0.25': frame number f480 needs the source frame rate, which is unknown"
        }
    }
}
