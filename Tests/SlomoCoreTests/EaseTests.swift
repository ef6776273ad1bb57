import Foundation
import PropertyBased
import Synchronization
import Testing
@testable import SlomoCore

/// Eased ramps: the curves, their syntax, and the time map they make, judged against an
/// independent evaluation of the integral (closed form where there is one, else Simpson's rule
/// over the Bézier curve solved by bisection, not the library's Newton steps).
@Suite struct EaseTests {
    static let eases: [Ease] = [.linear, .smooth, .easeIn, .easeOut, .easeInOut,
                                .cubicBezier(x1: Rational(1, 10), y1: Rational(7, 10), x2: Rational(4, 10), y2: Rational(1)),
                                .cubicBezier(x1: Rational(3, 5), y1: Rational(1, 25), x2: Rational(49, 50), y2: Rational(67, 200))]

    static func t(_ n: Int64, _ d: Int64 = 1) -> MediaTime { MediaTime(seconds: Rational(n, d)) }

    /// E(u) computed the slow, obvious way.
    static func reference(_ ease: Ease, at u: Double) -> Double {
        func bezier(_ p1: Double, _ p2: Double, _ t: Double) -> Double {
            3 * (1 - t) * (1 - t) * t * p1 + 3 * (1 - t) * t * t * p2 + t * t * t
        }
        func css(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
            var low = 0.0, high = 1.0
            for _ in 0..<200 {
                let middle = (low + high) / 2
                if bezier(x1, x2, middle) < u { low = middle } else { high = middle }
            }
            return bezier(y1, y2, (low + high) / 2)
        }
        switch ease {
        case .linear: return u
        case .smooth: return u * u * (3 - 2 * u)
        case .easeIn: return css(0.42, 0, 1, 1)
        case .easeOut: return css(0, 0, 0.58, 1)
        case .easeInOut: return css(0.42, 0, 0.58, 1)
        case .cubicBezier(let x1, let y1, let x2, let y2):
            return css(x1.doubleValue, y1.doubleValue, x2.doubleValue, y2.doubleValue)
        }
    }

    /// Output seconds from the ramp's start to `u`, for 1/rate going from `k0` to `k1` over
    /// `length` source seconds: closed form for linear and smooth, Simpson's rule otherwise.
    static func referenceOffset(_ ease: Ease, k0: Double, k1: Double, length: Double, to u: Double) -> Double {
        let area: Double
        switch ease {
        case .linear: area = u * u / 2
        case .smooth: area = u * u * u - u * u * u * u / 2
        default:
            let steps = 4000, h = u / Double(steps)
            var sum = reference(ease, at: 0) + reference(ease, at: u)
            for i in 1..<steps { sum += reference(ease, at: Double(i) * h) * (i % 2 == 1 ? 4 : 2) }
            area = sum * h / 3
        }
        return length * (k0 * u + (k1 - k0) * area)
    }

    @Test(arguments: eases) func curvesMatchTheirDefinitions(ease: Ease) {
        for i in 0...100 {
            let u = Double(i) / 100
            #expect(abs(ease.fraction(at: u) - Self.reference(ease, at: u)) < 1e-9, "E(\(u))")
            #expect(abs(Self.referenceOffset(ease, k0: 0, k1: 1, length: 1, to: u) - ease.integral(to: u)) < 1e-9, "I(\(u))")
        }
        #expect(ease.fraction(at: 0) == 0 && ease.fraction(at: 1) == 1)
    }

    /// A section 1–3 s at 0.25 with 0.6 s ramps on a 4 s clip: every source frame at 240 fps
    /// lands where the independent integral puts it, within a microsecond.
    @Test(arguments: eases) func everySourceFrameLandsOnTheClosedFormMap(ease: Ease) throws {
        let map = try TimeMap(sections: [Section(Self.t(1)..<Self.t(3), rate: 0.25, ramp: Self.t(3, 5), ease: ease)],
                              clipDuration: Self.t(4))
        let rampIn = 1.0 ... 1.6, rampOut = 2.4 ... 3.0
        let rampInOutput = Self.referenceOffset(ease, k0: 1, k1: 4, length: 0.6, to: 1)
        let rampOutOutput = Self.referenceOffset(ease, k0: 4, k1: 1, length: 0.6, to: 1)
        var worst = 0.0
        for frame in 0...960 {
            let s = Double(frame) / 240
            let expected: Double
            if s <= 1 {
                expected = s
            } else if rampIn.contains(s) {
                expected = 1 + Self.referenceOffset(ease, k0: 1, k1: 4, length: 0.6, to: (s - 1) / 0.6)
            } else if s < 2.4 {
                expected = 1 + rampInOutput + (s - 1.6) * 4
            } else if rampOut.contains(s) {
                expected = 1 + rampInOutput + 3.2 + Self.referenceOffset(ease, k0: 4, k1: 1, length: 0.6, to: (s - 2.4) / 0.6)
            } else {
                expected = 1 + rampInOutput + 3.2 + rampOutOutput + (s - 3)
            }
            let measured = map.outputTime(at: Self.t(Int64(frame), 240)).doubleSeconds
            worst = max(worst, abs(measured - expected))
            #expect(abs(measured - expected) < 1e-6, "frame \(frame): \(measured) against \(expected)")
        }
        print("\(ease): 961 source frames, worst distance from the closed-form map \(worst * 1e9) ns")
    }

    /// The rate just before a ramp's end equals the rate just after it within 0.1 %: read from
    /// output times 100 µs and 50 µs apart on either side of each ramp edge, extrapolated to
    /// the edge (Richardson), so that a steep curve is not taken for a jump.
    @Test(arguments: eases) func theRateDoesNotJumpAtRampEnds(ease: Ease) throws {
        let map = try TimeMap(sections: [Section(Self.t(1)..<Self.t(2), rate: 0.25, ramp: Self.t(3, 10), ease: ease),
                                         Section(Self.t(2)..<Self.t(3), rate: 2, ramp: Self.t(1, 5), ease: ease)],
                              clipDuration: Self.t(4))
        let h = Self.t(1, 10_000), half = Self.t(1, 20_000)
        var worst = 0.0
        for edge in map.segments.dropFirst().map(\.source.start) {
            func rate(_ a: MediaTime, _ b: MediaTime) -> Double {
                (b - a).doubleSeconds / (map.outputTime(at: b) - map.outputTime(at: a)).doubleSeconds
            }
            let before = 2 * rate(edge - half, edge) - rate(edge - h, edge)
            let after = 2 * rate(edge, edge + half) - rate(edge, edge + h)
            worst = max(worst, abs(after / before - 1))
            #expect(abs(after / before - 1) < 0.001, "at \(edge) s: \(before) then \(after)")
        }
        print("\(ease): largest rate change across a ramp edge \(worst * 100) %")
    }

    @Test func syntaxRoundTrips() throws {
        for text in ["2-4x0.25:ramp=0.3:ease=smooth", "2-4x0.25:ramp-in=0.2:ease=in-out",
                     "2-4x0.25:ramp=0.3:ease=cubic-bezier(0.25,0.1,0.25,1)"] {
            #expect(try SectionSpec(parsing: text).description == text)
        }
        #expect(try SectionSpec(parsing: "2-4x0.25:ramp=0.3:ease= in ").ease == .easeIn)
    }

    @Test(arguments: [
        ("2-4x0.25:ramp=0.3:ease=bouncy", "unknown ease 'bouncy'; expected linear, smooth, in, out, in-out or cubic-bezier"),
        ("2-4x0.25:ramp=0.3:ease=cubic-bezier(0.2,1.5,0.3,1)", "four numbers in 0…1"),
        ("2-4x0.25:ramp=0.3:ease=cubic-bezier(0.2,1)", "four numbers in 0…1"),
        ("2-4x0.25:ease=smooth", "needs a ramp"),
    ])
    func badEasesAreNamed(text: String, message: String) {
        #expect {
            _ = try SectionSpec(parsing: text)
        } throws: { error in
            let error = error as? TimeModelError
            return error?.section == .syntax(text) && error?.description.contains(message) == true
        }
    }

    @Test func aSharedRampTakesTheEaseEitherSideNames() throws {
        let left = try Section(range: TimeRange(start: Self.t(1), end: Self.t(2)), rate: 0.25, rampOut: Self.t(1, 2), ease: .smooth)
        let right = try Section(range: TimeRange(start: Self.t(2), end: Self.t(3)), rate: 2, rampIn: Self.t(1, 2))
        let map = try TimeMap(sections: [left, right], clipDuration: Self.t(4))
        let shared = map.segments.filter { $0.source.start >= Self.t(3, 2) && $0.source.end <= Self.t(5, 2) }
        #expect(shared.map(\.shape) == [.eased(from: 0.25, to: try Rate(Rational(4, 9)), ease: .smooth),
                                        .eased(from: try Rate(Rational(4, 9)), to: 2, ease: .smooth)])
        let conflicting = try Section(range: right.range, rate: 2, rampIn: Self.t(1, 2), ease: .easeIn,
                                      origin: .syntax("2-3x2:ramp-in=0.5:ease=in"))
        #expect {
            _ = try TimeMap(sections: [left, conflicting], clipDuration: Self.t(4))
        } throws: { error in
            (error as? TimeModelError)?.description
                == "section '2-3x2:ramp-in=0.5:ease=in': shares its ramp with section '1-2x0.25:ramp-out=0.5:ease=smooth' "
                + "but eases it differently (smooth and in); give both the same ease"
        }
    }

    /// Cutting a map for playback inside an eased ramp, and playing it faster, keep its times.
    @Test(arguments: [Ease.smooth, .easeOut]) func trimmedAndScaledMapsKeepTheCurve(ease: Ease) throws {
        let map = try TimeMap(sections: [Section(Self.t(1)..<Self.t(3), rate: 0.25, ramp: Self.t(3, 5), ease: ease)],
                              clipDuration: Self.t(4))
        let trimmed = try map.trimmed(fromOutput: map.outputTime(at: Self.t(13, 10)))
        let scaled = try map.scaled(by: 2)
        for frame in 312...960 {
            let s = Self.t(Int64(frame), 240)
            #expect(trimmed.outputTime(at: s) == map.outputTime(at: s), "trimmed at \(s)")
            #expect(scaled.outputTime(at: s) == (try map.outputTime(at: s).divided(by: Rational(2))), "scaled at \(s)")
        }
        for (left, right) in zip(scaled.segments, scaled.segments.dropFirst()) {
            #expect(left.output.end == right.output.start)
        }
    }

    /// 500 random maps with random eases (about 10,000 sections): strictly increasing at every
    /// sample, segments tiling the output, and the inverse within a microsecond.
    @Test func randomEasedMapsStayStrictlyIncreasing() async {
        let count = Mutex(0)
        await propertyCheck(count: 500, input: TimeMapPropertyTests.numbers, Gen.int(in: 0...(Self.eases.count - 1))) { numbers, pick in
            let ease = Self.eases[pick]
            let sections = try! TimeMapPropertyTests.sections(numbers, ramps: true).map { section in
                try! Section(range: section.range, rate: section.rate, rampIn: section.rampIn, rampOut: section.rampOut,
                             ease: section.rampIn == .zero && section.rampOut == .zero ? nil : ease)
            }
            count.withLock { $0 += sections.count }
            let map = try! TimeMap(sections: sections, clipDuration: TimeMapPropertyTests.clipDuration)
            let times = TimeMapPropertyTests.samples(map)
            for (earlier, later) in zip(times, times.dropFirst()) where earlier < later {
                #expect(map.outputTime(at: earlier) < map.outputTime(at: later), "\(ease): \(earlier) \(later)")
            }
            for (left, right) in zip(map.segments, map.segments.dropFirst()) {
                #expect(left.source.end == right.source.start && left.output.end == right.output.start)
            }
            let microsecond = Self.t(1, 1_000_000)
            for time in times {
                let back = map.sourceTime(at: map.outputTime(at: time))
                #expect(back - time <= microsecond && time - back <= microsecond, "\(ease): \(time) → \(back)")
            }
        }
        print("random eased maps: \(count.withLock { $0 }) sections")
        #expect(count.withLock { $0 } >= 5_000)
    }
}
