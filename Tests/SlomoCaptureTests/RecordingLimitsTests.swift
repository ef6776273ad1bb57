import SlomoCore
import Testing
@testable import SlomoCapture

/// The decision of whether a recording stops on a limit, from measured values alone.
@Suite struct RecordingLimitsTests {
    typealias Measurement = RecordingLimits.Measurement

    static let all = RecordingLimits(maximumDuration: .seconds(10), maximumSize: 1_000_000, minimumFreeSpace: 64 << 20)

    @Test func durationIsReachedAtTheLimitItself() {
        let limits = RecordingLimits(maximumDuration: .seconds(10))
        #expect(limits.reached(by: Measurement(recordedTime: 9_999_999_999)) == nil)
        #expect(limits.reached(by: Measurement(recordedTime: 10_000_000_000)) == .maximumDuration)
        #expect(limits.reached(by: Measurement(recordedTime: 10_000_000_001)) == .maximumDuration)
    }

    @Test func durationCountsExactlyInFractionsOfASecond() {
        // 1001/30000 s (one NTSC frame) is 33 366 666.67 ns, rounded to nearest.
        let limits = RecordingLimits(maximumDuration: MediaTime(value: 1001, timescale: 30000))
        #expect(limits.reached(by: Measurement(recordedTime: 33_366_666)) == nil)
        #expect(limits.reached(by: Measurement(recordedTime: 33_366_667)) == .maximumDuration)
    }

    @Test func sizeIsReachedOnlyPastTheLimit() {
        let limits = RecordingLimits(maximumSize: 1_000_000)
        #expect(limits.reached(by: Measurement(fileSize: 999_999)) == nil)
        #expect(limits.reached(by: Measurement(fileSize: 1_000_000)) == nil)
        #expect(limits.reached(by: Measurement(fileSize: 1_000_001)) == .maximumSize)
    }

    @Test func freeSpaceIsReachedBelowTheMinimum() {
        let limits = RecordingLimits(minimumFreeSpace: 64 << 20)
        #expect(limits.reached(by: Measurement(freeSpace: 64 << 20)) == nil)
        #expect(limits.reached(by: Measurement(freeSpace: (64 << 20) - 1)) == .minimumFreeSpace)
        #expect(limits.reached(by: Measurement(freeSpace: -1)) == .minimumFreeSpace)
    }

    @Test func noLimitSetIsNeverReached() {
        let none = RecordingLimits()
        #expect(none.reached(by: Measurement(recordedTime: .max, fileSize: .max, freeSpace: .min)) == nil)
        #expect(none.reached(by: Measurement()) == nil)
    }

    @Test func aLimitIsNotReachedByWhatWasNotMeasured() {
        #expect(Self.all.reached(by: Measurement()) == nil)
        #expect(Self.all.reached(by: Measurement(recordedTime: 0, fileSize: 0, freeSpace: .max)) == nil)
    }

    @Test func durationWinsOverSizeAndSizeOverFreeSpace() {
        let limits = Self.all
        let everything = Measurement(recordedTime: 10_000_000_000, fileSize: 1_000_001, freeSpace: 0)
        #expect(limits.reached(by: everything) == .maximumDuration)
        #expect(limits.reached(by: Measurement(recordedTime: 0, fileSize: 1_000_001, freeSpace: 0)) == .maximumSize)
        #expect(limits.reached(by: Measurement(recordedTime: 0, fileSize: 0, freeSpace: 0)) == .minimumFreeSpace)
        #expect(limits.reached(by: Measurement(recordedTime: 10_000_000_000, fileSize: 0, freeSpace: 0)) == .maximumDuration)
    }

    @Test func theSettingsCarryTheirLimits() {
        var settings = MovieFileOutput.Settings(path: "take.mov")
        #expect(settings.limits == RecordingLimits(minimumFreeSpace: 64 << 20))
        settings.maxDuration = .seconds(10)
        settings.maxSize = 1_000_000
        #expect(settings.limits == Self.all)
    }
}
