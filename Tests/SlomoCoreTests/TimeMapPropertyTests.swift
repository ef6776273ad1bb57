import PropertyBased
import Testing
@testable import SlomoCore

/// Properties of the time map over random section sets, built from random integers so that
/// failures shrink to small inputs.
@Suite struct TimeMapPropertyTests {
    static let clipDuration = MediaTime(value: 120, timescale: 1)
    static let rates: [Rational] = [Rational(1, 32), Rational(1, 8), Rational(1, 4), Rational(1, 3), Rational(1, 2),
                                    Rational(2, 3), Rational(1), Rational(3, 2), Rational(2), Rational(3), Rational(4),
                                    Rational(32)]
    static let numbers = Gen.int(in: 0...1_000_000).array(of: 1...40)

    /// Sections in milliseconds: each number picks a gap (often 0, so sections touch), a length,
    /// a rate and, when `ramps`, ramp lengths of up to half the section.
    static func sections(_ numbers: [Int], ramps: Bool) throws -> [Section] {
        var sections: [Section] = []
        var cursor: Int64 = 0
        for n in numbers.map(Int64.init) {
            let gap = n % 3 == 0 ? 0 : n % 2_000
            let length = 1 + (n / 7) % 4_000
            guard cursor + gap + length <= 120_000 else { break }
            let rate = try Rate(rates[Int(n / 11) % rates.count])
            let rampIn = ramps ? (n / 13) % (length / 2 + 1) : 0
            let rampOut = ramps ? (n / 17) % (length / 2 + 1) : 0
            let ms = { (value: Int64) in MediaTime(value: value, timescale: 1000) }
            sections.append(try Section(range: TimeRange(start: ms(cursor + gap), duration: ms(length)), rate: rate,
                                        rampIn: ms(rampIn), rampOut: ms(rampOut)))
            cursor += gap + length
        }
        return sections
    }

    /// Sample source times: every segment edge, points inside segments at frame and odd timescales.
    static func samples(_ map: TimeMap) -> [MediaTime] {
        var times: [MediaTime] = []
        for segment in map.segments {
            let start = segment.source.start, duration = segment.source.duration
            times.append(start)
            for fraction in [Rational(1, 240), Rational(1, 3), Rational(1, 2), Rational(997, 1000)] {
                times.append(start + (try! duration.multiplied(by: fraction)))
            }
            times.append(start + MediaTime(value: 1, timescale: 90000))
        }
        times.append(map.source.end)
        return times.filter { $0 <= map.source.end }.sorted()
    }

    @Test func strictlyIncreasing() async {
        await propertyCheck(count: 50, input: Self.numbers, Gen.bool()) { numbers, ramps in
            let map = try! TimeMap(sections: Self.sections(numbers, ramps: ramps), clipDuration: Self.clipDuration)
            let times = Self.samples(map)
            for (earlier, later) in zip(times, times.dropFirst()) where earlier < later {
                #expect(map.outputTime(at: earlier) < map.outputTime(at: later), "\(earlier) \(later)")
            }
        }
    }

    @Test func inverseIsExactOnConstantSections() async {
        await propertyCheck(count: 50, input: Self.numbers) { numbers in
            let map = try! TimeMap(sections: Self.sections(numbers, ramps: false), clipDuration: Self.clipDuration)
            for time in Self.samples(map) {
                #expect(map.sourceTime(at: map.outputTime(at: time)) == time)
            }
        }
    }

    @Test func inverseIsWithinAMicrosecondOnRamps() async {
        await propertyCheck(count: 50, input: Self.numbers) { numbers in
            let map = try! TimeMap(sections: Self.sections(numbers, ramps: true), clipDuration: Self.clipDuration)
            let microsecond = MediaTime(value: 1, timescale: 1_000_000)
            for time in Self.samples(map) {
                let back = map.sourceTime(at: map.outputTime(at: time))
                #expect(back - time <= microsecond && time - back <= microsecond, "\(time) → \(back)")
            }
        }
    }

    @Test func segmentsTileTheOutputAndAddUpToTheTotal() async {
        await propertyCheck(count: 50, input: Self.numbers, Gen.bool()) { numbers, ramps in
            let map = try! TimeMap(sections: Self.sections(numbers, ramps: ramps), clipDuration: Self.clipDuration)
            let total = map.segments.reduce(MediaTime.zero) { $0 + $1.output.duration }
            #expect(total == map.outputDuration)
            #expect(map.segments.first?.source.start == .zero && map.segments.last?.source.end == Self.clipDuration)
            for (left, right) in zip(map.segments, map.segments.dropFirst()) {
                #expect(left.source.end == right.source.start && left.output.end == right.output.start)
            }
        }
    }

    @Test func aSectionAtRateRLastsExactlyDOverR() async {
        await propertyCheck(count: 50, input: Self.numbers) { numbers in
            let sections = try! Self.sections(numbers, ramps: false)
            let map = try! TimeMap(sections: sections, clipDuration: Self.clipDuration)
            for section in sections {
                let lasts = map.outputTime(at: section.range.end) - map.outputTime(at: section.range.start)
                #expect(lasts == (try! section.range.duration.divided(by: section.rate.value)))
            }
        }
    }
}
