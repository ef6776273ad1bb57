import Foundation
import SlomoCapture
import SlomoCore
import SlomoMedia
import SlomoTestSupport
import Synchronization
import Testing

/// Sessions with real sources (lavfi, paced in real time): frame output drop policy, meters,
/// the library's record API.
@Suite(.serialized) struct SessionTests {
    /// A 240 Hz source into a consumer that needs 6 ms a frame (it can take ~167 of 240 a second).
    static func runSlowConsumer(discardsLate: Bool, seconds: Double = 2)
        throws -> (counters: OutputCounters, samples: [OutputCounters], sequences: [Int]) {
        let session = CaptureSession()
        try session.add(.testPattern(width: 160, height: 120, frameRate: Rational(240)))
        let sequences = Mutex<[Int]>([])
        let output = FrameOutput(alwaysDiscardsLateFrames: discardsLate, backlog: 8) { captured in
            sequences.withLock { $0.append(captured.sequenceNumber) }
            usleep(6000)
        }
        try session.add(output)
        try session.startRunning()
        var samples: [OutputCounters] = []
        let end = Date(timeIntervalSinceNow: seconds)
        while Date() < end {
            samples.append(output.counters)
            usleep(5000)
        }
        session.stopRunning()
        #expect(session.waitUntilFinished(timeout: 20))
        return (output.counters, samples, sequences.withLock { $0 })
    }

    @Test func frameOutputKeepsOnlyTheNewestFrame() throws {
        let run = try Self.runSlowConsumer(discardsLate: true)
        print("alwaysDiscardsLateFrames: \(run.counters)")
        #expect(run.samples.allSatisfy { $0.isConsistent })
        #expect(run.counters.isConsistent)
        #expect(run.counters.received > 300)
        #expect(run.counters.droppedAsLate > 0)
        #expect(run.counters.droppedBecauseQueueFull == 0)
        #expect(zip(run.sequences.dropFirst(), run.sequences).allSatisfy { $0 > $1 })
        #expect(run.counters.delivered == run.sequences.count)
        #expect(run.samples.allSatisfy { $0.queued <= 1 })
    }

    @Test func frameOutputWithABacklogDropsWhatDoesNotFit() throws {
        let run = try Self.runSlowConsumer(discardsLate: false)
        print("backlog of 8: \(run.counters)")
        #expect(run.samples.allSatisfy { $0.isConsistent })
        #expect(run.counters.isConsistent)
        #expect(run.counters.droppedBecauseQueueFull > 0)
        #expect(run.counters.droppedAsLate == 0)
        #expect(run.samples.allSatisfy { $0.queued <= 8 })
        // Delivered in order, without gaps other than counted drops.
        #expect(zip(run.sequences.dropFirst(), run.sequences).allSatisfy { $0 > $1 })
    }

    @Test func frameOutputThrottlesByTimestamp() throws {
        let session = CaptureSession()
        try session.add(.testPattern(width: 160, height: 120, frameRate: Rational(240)))
        let times = Mutex<[MediaTime]>([])
        let output = FrameOutput(alwaysDiscardsLateFrames: false, backlog: 64, minFrameDuration: .seconds(1.0 / 60)) { frame in
            times.withLock { $0.append(frame.time) }
        }
        try session.add(output)
        try session.startRunning()
        usleep(1_000_000)
        session.stopRunning()
        #expect(session.waitUntilFinished(timeout: 20))
        let counters = output.counters
        #expect(counters.isConsistent)
        #expect(counters.droppedByThrottle > counters.delivered * 2)
        let intervals = times.withLock { list in zip(list.dropFirst(), list).map { ($0 - $1).doubleSeconds } }
        #expect(intervals.allSatisfy { $0 >= 1.0 / 60 - 0.0001 })
    }

    /// Issue 17: the raw frames waiting for a recording's writer keep to its byte budget,
    /// also when another input (sound) adds to the queue's count bound. The writer (scaling to
    /// 4K for libx264 veryslow) cannot keep up with 60 fps, so the queue fills.
    @Test func recordingQueueKeepsToItsByteBudget() throws {
        let path = try FixtureCache.shared.scratchFolder("budget").appendingPathComponent("take.mov").path
        let session = CaptureSession()
        try session.add(.testPattern(width: 1280, height: 720, frameRate: Rational(60)))
        try session.add(.sine(frequency: 440))
        var settings = MovieFileOutput.Settings(path: path)
        settings.videoCodecOptions["preset"] = "veryslow"
        settings.size = OutputSettings.Size(width: 3840, height: 2160)
        settings.queueBudgetBytes = 8 << 20
        let take = try session.add(MovieFileOutput(settings: settings))
        try session.startRunning()
        var mostQueued = 0
        let end = Date(timeIntervalSinceNow: 1.5)
        while Date() < end {
            mostQueued = max(mostQueued, take.videoCounters.queued)
            usleep(5000)
        }
        session.stopRunning()
        #expect(session.waitUntilFinished(timeout: 60))
        let counters = take.videoCounters
        let frameBytes = 1280 * 720 * 3 / 2
        print("720p60 into a 4K veryslow writer, 8 MB budget: at most \(mostQueued) frames queued; \(counters)")
        #expect(counters.droppedBecauseQueueFull > 0, "the writer kept up: the budget was not tested")
        #expect(mostQueued * frameBytes <= settings.queueBudgetBytes)
        #expect(counters.isConsistent)
    }

    @Test func sineMetersReadMinus6PeakAndMinus9Average() throws {
        let session = CaptureSession()
        try session.add(.sine(frequency: 440, amplitude: 0.5))
        let meter = AudioLevelMeter()
        try session.add(meter)
        try session.startRunning()
        usleep(800_000)
        let levels = meter.levels
        session.stopRunning()
        #expect(session.waitUntilFinished(timeout: 20))
        print("sine levels: \(levels)")
        let level = try #require(levels.first)
        #expect(abs(level.peakHold - -6.02) <= 0.1)
        #expect(abs(level.averagePower - -9.03) <= 0.1)
    }

    @Test func recordUntilADurationLimit() async throws {
        let folder = try FixtureCache.shared.scratchFolder("capture-library")
        let path = folder.appendingPathComponent("take.mov").path
        let session = CaptureSession()
        try session.add(.testPattern(width: 160, height: 120, frameRate: Rational(120)))
        try session.add(.sine(frequency: 1000))
        let take = MovieFileOutput(path, fragmentInterval: .seconds(0.5), maxDuration: .seconds(1))
        let result = try await session.record(until: take)
        #expect(result.reason == .maximumDuration)
        #expect(result.finishedSuccessfully)
        #expect(result.videoFrames + result.counters.dropped == 120)
        #expect(result.counters.isConsistent)
        // The rates read back after opening: the pattern's own, none for the tone.
        #expect(session.grantedFrameRates == [Rational(120), nil])
        let probe = try FFprobe(path)
        #expect(probe.stream("video")?["codec_name"] as? String == "h264")
        #expect(probe.stream("audio")?["codec_name"] as? String == "pcm_f32le")
    }

    @Test func outputFolderMustExistAndNothingIsLeftBehind() throws {
        let session = CaptureSession()
        try session.add(.testPattern(width: 160, height: 120, frameRate: Rational(30)))
        try session.add(MovieFileOutput("/nonexistent-folder/take.mov"))
        do {
            try session.startRunning()
            Issue.record("started")
        } catch {
            #expect(error.kind == .outputProblem)
            #expect(error.description.contains("/nonexistent-folder"))
        }
    }
}
