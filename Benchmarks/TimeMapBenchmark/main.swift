// Measures the time map's lookup speed: one million forward and one million inverse lookups
// over a map of 201 segments (50 sections at 0.25x and 2x with ramps). Run by
// `scripts/bench timemap` in a release build; it prints, it does not assert.
import SlomoCore

func seconds(_ numerator: Int64, _ denominator: Int64 = 1) -> MediaTime { MediaTime(seconds: Rational(numerator, denominator)) }

let map = try TimeMap(sections: (0..<50).map { index in
    try Section(range: TimeRange(start: seconds(Int64(index) * 20 + 2), duration: seconds(10)),
                rate: index % 2 == 0 ? 0.25 : 2, rampIn: seconds(1, 2), rampOut: seconds(1, 2))
}, clipDuration: seconds(1000))

let lookups: Int64 = 1_000_000
var checksum: Int64 = 0
let clock = ContinuousClock()
let forward = clock.measure {
    for tick in 0..<lookups {
        checksum &+= map.outputTime(at: MediaTime(value: tick * 90, timescale: 90000)).value
    }
}
let output = map.outputDuration.doubleSeconds
let inverse = clock.measure {
    for step in 0..<lookups {
        let time = MediaTime(value: step * Int64(output * 1000) / lookups, timescale: 1000)
        checksum &+= map.sourceTime(at: time).value
    }
}
print("time map of \(map.segments.count) segments: 1,000,000 forward lookups in \(forward), 1,000,000 inverse in \(inverse) (checksum \(checksum))")
