import Testing
@testable import SlomoCore

/// Issue 16, item 10: one time grammar for sections, durations and edit scripts (whose reading
/// of it SlomoScriptTests checks): seconds, units, timecodes, SMPTE (drop-frame too), frames,
/// fractions, `end`.
@Suite struct TimeGrammarTests {
    let clip = TimeRange(start: .zero, duration: MediaTime(value: 600, timescale: 1))

    func range(_ text: String, frameRate: Rational?) throws -> TimeRange {
        try SectionSpec(parsing: text).resolved(in: clip, frameRate: frameRate).range
    }

    @Test(arguments: [("1.5", Rational(3, 2)), ("1.5s", Rational(3, 2)), ("1500ms", Rational(3, 2)), ("2m", Rational(120)),
                      ("1h", Rational(3600)), ("1/3", Rational(1, 3)), ("01:02.5", Rational(125, 2)),
                      ("00:01:02.250", Rational(249, 4)), ("0.5m", Rational(30))])
    func secondsWithAndWithoutUnits(text: String, seconds: Rational) throws {
        #expect(try MediaTime(parsing: text) == MediaTime(seconds: seconds))
    }

    @Test(arguments: ["1.5x", "ms", "1.5 s", "--1", "1:60", "2mm"])
    func malformedTimesAreRefused(text: String) {
        #expect(throws: TimeModelError.self) { try MediaTime(parsing: text) }
    }

    /// At 30000/1001 non-drop `00:00:02:15` is frame 75; drop-frame `00:01:00;02` is frame
    /// 1800 and `00:10:00;00` frame 17982 (18 frame numbers skipped in ten minutes).
    @Test func smpteTimecodesNameFrames() throws {
        let ntsc = Rational(30000, 1001)
        #expect(try SMPTETimecode(parsing: "00:00:02:15")!.frameNumber(at: ntsc) == 75)
        #expect(try SMPTETimecode(parsing: "00:01:00;02")!.frameNumber(at: ntsc) == 1800)
        #expect(try SMPTETimecode(parsing: "00:10:00;00")!.frameNumber(at: ntsc) == 17982)
        #expect(try SMPTETimecode(parsing: "00:01:00;04")!.frameNumber(at: Rational(60000, 1001)) == 3600)
        #expect(try SMPTETimecode(parsing: "01:00:00:00")!.frameNumber(at: Rational(25)) == 90000)
        #expect(try range("00:00:02:00-00:00:04:00x0.25", frameRate: Rational(240))
                == TimeRange(start: .seconds(2), end: .seconds(4)))
        let dropFrame = try range("00:01:00;02-00:10:00;00x0.5", frameRate: ntsc)
        #expect(dropFrame.start == MediaTime(seconds: Rational(1800 * 1001, 30000)))
        #expect(dropFrame.end == MediaTime(seconds: Rational(17982 * 1001, 30000)))
        #expect(SectionSpec.Position.timecode(SMPTETimecode(parsing: "00:01:00;02")!).description == "00:01:00;02")
    }

    @Test(arguments: [
        ("00:00:02;00-4x0.5", Rational(25), "needs 29.97 or 59.94 fps"),
        ("00:00:01:30-4x0.5", Rational(30), "the frames field must be below 30"),
        ("00:01:00;00-00:02:00;00x0.5", Rational(30000, 1001), "does not exist"),
    ])
    func impossibleTimecodesAreNamed(text: String, frameRate: Rational, message: String) {
        #expect { try range(text, frameRate: frameRate) } throws: { "\($0)".contains(message) }
    }

    @Test func timecodeNeedsTheFrameRate() {
        #expect(throws: TimeModelError.self) { try range("00:00:02:00-4x0.5", frameRate: nil) }
    }

    @Test func unitsInSectionsAndRamps() throws {
        let section = try SectionSpec(parsing: "1500ms-3sx0.5:ramp=100ms").resolved(in: clip, frameRate: nil)
        #expect(section.range == TimeRange(start: MediaTime(seconds: Rational(3, 2)), end: .seconds(3)))
        #expect(section.rampIn == MediaTime(seconds: Rational(1, 10)))
    }

    /// A timecode moves to another rate by its frames field: `01:00:00:120` at 240 fps is
    /// `01:00:00:15` at 30 fps and at 29.97 (nominal 30, non-drop).
    @Test func timecodesConvertBetweenRates() throws {
        let timecode = try #require(SMPTETimecode(parsing: "01:00:00:120"))
        #expect(try timecode.converted(from: Rational(240), to: Rational(30)).description == "01:00:00:15")
        #expect(try timecode.converted(from: Rational(240), to: Rational(30000, 1001)).description == "01:00:00:15")
        #expect(try #require(SMPTETimecode(parsing: "00:00:59:239")).converted(from: Rational(240), to: Rational(25)).description
                == "00:00:59:24")
        #expect(throws: TimeModelError.self) { try #require(SMPTETimecode(parsing: "00:00:00:240")).converted(from: Rational(240), to: Rational(30)) }
    }
}

