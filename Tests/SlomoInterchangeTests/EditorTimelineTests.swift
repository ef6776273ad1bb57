import Foundation
import SlomoCore
@testable import SlomoInterchange
import Testing

/// A composition laid out as editor events: exact, gapless, ramps in frame-aligned steps.
@Suite struct EditorTimelineTests {
    static let media = TimelineMedia(path: "/media/clip.mov", duration: .seconds(10), frameRate: Rational(240),
                                     width: 160, height: 120, audioRate: 48000, audioChannels: 2)

    static func timeline(_ sections: [String], media: TimelineMedia = media) throws -> Timeline {
        let composition = try Composition(source: media.path, duration: media.duration, frameRate: media.frameRate,
                                          sections: sections)
        return try Timeline(composition, media: [media], name: "test")
    }

    @Test func constantSectionsAreOneEventEach() throws {
        let timeline = try Self.timeline(["2-4x0.25", "6-8x2"])
        #expect(timeline.events.map(\.rate) == [Rational(1), Rational(1, 4), Rational(1), Rational(2), Rational(1)])
        #expect(timeline.events[1].source == TimeRange(start: .seconds(2), end: .seconds(4)))
        #expect(timeline.events[1].output == TimeRange(start: .seconds(2), end: .seconds(10)))
        #expect(timeline.duration == .seconds(15))
        #expect(timeline.frameRate == Rational(240))
    }

    @Test func eventsTileTheOutputAndTheSource() throws {
        let timeline = try Self.timeline(["1-3x1/3:ramp=0.25", "3-5x3:ramp-in=0.5", "7-9x0.125:ramp=0.4"])
        for (left, right) in zip(timeline.events, timeline.events.dropFirst()) {
            #expect(left.output.end == right.output.start)
            #expect(left.source.end == right.source.start)
        }
        #expect(timeline.events.first?.output.start == .zero)
        #expect(timeline.events.last?.output.end == timeline.duration)
        #expect(timeline.events.last?.source.end == .seconds(10))
    }

    /// A 0.3 s ramp at 240 fps is 72 frames: 12 steps of 6 frames, each at the average rate of
    /// its part of the ramp, which lies between the ramp's end rates.
    @Test func rampStepsLieOnSourceFrames() throws {
        let timeline = try Self.timeline(["2-4x0.25:ramp=0.3"])
        let steps = timeline.events.filter { $0.ramp != nil }
        #expect(steps.count == 2 * Timeline.maximumRampSteps)
        for step in steps {
            #expect((step.source.start.seconds * Rational(240)).denominator == 1)
            #expect(step.source.duration == MediaTime(seconds: Rational(6, 240)))
            #expect(step.rate >= Rational(1, 4) && step.rate <= Rational(1))
        }
        let firstRamp = steps.prefix(Timeline.maximumRampSteps)
        #expect(firstRamp.map(\.rate) == firstRamp.map(\.rate).sorted(by: >), "easing from 1 down to 0.25")
        #expect(firstRamp.last?.output.end == firstRamp.first?.ramp?.output.end)
    }

    @Test func shortRampsUseEveryFrame() throws {
        let timeline = try Self.timeline(["2-4x0.5:ramp=0.025"])    // 6 frames at 240 fps
        #expect(timeline.events.filter { $0.ramp != nil }.count == 12)
    }

    /// MLT entries start half a source frame early (timewarp shows the nearest frame), but never
    /// before the media's first frame: a section from 0 starts at frame 0.
    @Test func mltEntriesNeverStartBeforeTheMedia() throws {
        let text = MLTWriter.text(try Self.timeline(["0-1x0.5", "2-3x0.25"]))
        #expect(!text.contains("in=\"-"), "\(text)")
        #expect(text.contains("<entry producer=\"producer0\" in=\"0\" out=\"479\"/>"))
        #expect(text.contains("<entry producer=\"producer2\" in=\"1918\""), "2 s at 0.25x, half a frame early")
    }

    /// A reversed event is a timewarp at a negative speed, which MLT plays from its producer's
    /// `out` backwards: `out` is the last position before the range's end less half a source
    /// frame (measured with melt: every flash on its planned frame at -1, -0.5 and -2).
    @Test(arguments: [("4-6x-1", "-1", 1439, 479), ("4-6x-0.5", "-0.5", 2878, 959), ("4-6x-2", "-2", 719, 239)])
    func mltPlaysAReversedEventFromItsEnd(section: String, speed: String, out: Int, last: Int) throws {
        let text = MLTWriter.text(try Self.timeline([section]))
        #expect(text.contains("<property name=\"resource\">\(speed):/media/clip.mov</property>"), "\(text)")
        #expect(text.contains("<property name=\"warp_speed\">\(speed)</property>"))
        #expect(text.contains("<property name=\"length\">\(out + 1)</property>"))
        #expect(text.contains("<property name=\"out\">\(out)</property>"))
        #expect(text.contains("<entry producer=\"producer1\" in=\"0\" out=\"\(last)\"/>"))
    }

    /// Final Cut's reverse: the timeMap's values run from the media end down to its start.
    @Test func fcpxmlTimeMapRunsBackwardsInAReversedClip() throws {
        let text = FCPXMLWriter.text(try Self.timeline(["4-6x-0.5"]))
        #expect(text.contains(#"<asset-clip ref="a1" name="clip" offset="4s" start="4s" duration="4s">"#), "\(text)")
        #expect(text.contains(#"<timept time="4s" value="6s" interp="linear"/>"#))
        #expect(text.contains(#"<timept time="8s" value="4s" interp="linear"/>"#))
    }

    @Test func unknownMediaIsAnError() throws {
        let composition = try Composition(source: "/elsewhere.mov", duration: .seconds(2), frameRate: nil, sections: [])
        #expect(throws: TimeModelError.self) { try Timeline(composition, media: [Self.media], name: "x") }
    }

    @Test func rationalApproximation() {
        #expect(Rational.approximating(0.25) == Rational(1, 4))
        #expect(Rational.approximating(1.0 / 3) == Rational(1, 3))
        #expect(Rational.approximating(59.94005994005994, maximumDenominator: 1001) == Rational(60000, 1001))
        #expect(Rational.approximating(29.97, maximumDenominator: 1001) == Rational(2997, 100))
        #expect(Rational.approximating(480) == Rational(480))
        #expect(Rational.approximating(.nan) == nil)
    }
}
