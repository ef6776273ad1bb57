import Foundation
import SlomoConcurrency
import SlomoCore
import SlomoMedia

/// AVCaptureSession's model on Linux: inputs (a test pattern, the X screen, a V4L2 camera, an
/// FFmpeg URL, PulseAudio/ALSA, a sine tone) and outputs (a `MovieFileOutput`, `FrameOutput`s,
/// `AudioLevelMeter`s). Each input has a reader thread that re-stamps every sample onto the
/// session's one monotonic clock and hands it to the outputs without ever waiting for them.
///
/// ```swift
/// let session = CaptureSession()
/// try session.add(.testPattern(width: 1280, height: 720, frameRate: Rational(240)))
/// let take = MovieFileOutput("take.mov", maxDuration: .seconds(10))
/// try session.add(take)
/// let result = try await session.record(until: take)
/// ```
public final class CaptureSession: @unchecked Sendable {
    /// Where a session is in its life: inputs and outputs are added while `configuring`.
    public enum State: Sendable { case configuring, running, stopping, finished }

    /// The session clock; time zero is when `startRunning()` was called (which sets it before
    /// any reader starts).
    public private(set) var clock = SessionClock()
    public private(set) var inputs: [CaptureInput] = []
    /// Seconds a URL or device may take to open, and to deliver its first sample.
    public var openTimeout: Double = 10
    /// Seconds without a sample after which a source counts as lost.
    public var stallTimeout: Double = 3

    /// What the session's threads and its callers share; reachable only inside `shared`'s lock.
    struct Shared {
        var state = State.configuring
        var reason: CaptureStopReason?
        /// The opened inputs, from `startRunning()` until the session has finished.
        var sources: [CaptureSource] = []
        var grantedRates: [Rational?] = []
        /// Samples received from each input.
        var received: [Int] = []
        var frameRateMeter = FrameRateMeter()
    }

    let shared = Guarded(Shared())
    // Set while configuring, then only read.
    private(set) var movieOutputs: [MovieFileOutput] = []
    private(set) var frameOutputs: [FrameOutput] = []
    private(set) var meters: [AudioLevelMeter] = []
    private var firstVideoInput: Int?
    private let readers = DispatchGroup()
    private let writers = DispatchGroup()

    public init() {}

    public var currentState: State { shared.read(\.state) }
    /// Why the session stopped, once it has.
    public var stopReason: CaptureStopReason? { shared.read(\.reason) }

    /// Adds an input (before `startRunning()`).
    public func add(_ input: CaptureInput) throws(CaptureError) {
        try configuring()
        inputs.append(input)
    }

    /// Adds a movie file output (before `startRunning()`).
    @discardableResult
    public func add(_ output: MovieFileOutput) throws(CaptureError) -> MovieFileOutput {
        try configuring()
        guard movieOutputs.allSatisfy({ $0.settings.path != output.settings.path }) else {
            throw CaptureError(.outputProblem, "\(output.settings.path): already recorded by this session")
        }
        movieOutputs.append(output)
        return output
    }

    /// Adds a frame output (before `startRunning()`).
    public func add(_ output: FrameOutput) throws(CaptureError) {
        try configuring()
        frameOutputs.append(output)
    }

    /// Adds audio level meters fed by every audio input (before `startRunning()`).
    public func add(_ meter: AudioLevelMeter) throws(CaptureError) {
        try configuring()
        meters.append(meter)
    }

    private func configuring() throws(CaptureError) {
        guard shared.read({ $0.state == .configuring }) else {
            throw CaptureError(.invalidInput, "the session has already started: add inputs and outputs before startRunning()")
        }
    }

    /// Opens every input, creates the outputs' files and starts capturing. On failure nothing
    /// is left running and no file is left behind.
    public func startRunning() throws(CaptureError) {
        try configuring()
        guard !inputs.isEmpty else { throw CaptureError(.invalidInput, SettingIssue(.input, nil, "add at least one")) }
        for output in movieOutputs { try output.checkSettings() }
        for input in inputs where input.kind == .camera { try CaptureDevice.checkCamera(for: input) }
        var opened: [CaptureSource] = []
        for (index, input) in inputs.enumerated() {
            let source = try CaptureSource(index: index, input: input, openTimeout: openTimeout)
            let wantsFrames = !source.isAudio && !frameOutputs.isEmpty
            let wantsSamples = source.isAudio && !meters.isEmpty
            if input.kind == .testPattern { try source.prerender() }
            else if source.isRaw || wantsFrames || wantsSamples { try source.makeDecoder() }
            opened.append(source)
        }
        var prepared: [MovieFileOutput] = []
        for output in movieOutputs {
            do {
                try output.prepare(sources: opened)
            } catch {
                for done in prepared { done.close(); done.runWriter() }
                throw error
            }
            output.onStop = { [weak self] reason in self?.stop(reason) }
            prepared.append(output)
        }
        firstVideoInput = opened.first(where: { !$0.isAudio })?.index
        clock = SessionClock()
        shared.withLock {
            $0.sources = opened
            $0.grantedRates = opened.map { $0.isAudio ? nil : $0.frameRate }
            $0.received = Array(repeating: 0, count: opened.count)
            $0.state = .running
        }
        for output in movieOutputs {
            writers.enter()
            Self.spawn("slomo-writer") { output.runWriter(); self.writers.leave() }
        }
        for output in frameOutputs {
            writers.enter()
            Self.spawn("slomo-frames") { output.runDelivery(); self.writers.leave() }
        }
        for source in opened {
            readers.enter()
            Self.spawn("slomo-reader-\(source.index)") { self.read(source); self.readers.leave() }
        }
    }

    /// The frame rate each input really delivers, read back after opening (drivers round the
    /// rate asked for silently); nil for audio inputs and before `startRunning()`.
    public var grantedFrameRates: [Rational?] { shared.read(\.grantedRates) }

    /// True while capturing, until a stop is asked for.
    var isRunning: Bool { shared.read { $0.state == .running } }

    /// Stops capturing; the movie files are finalised. Safe from any thread, any number of times.
    public func stopRunning() { stop(.stopped) }

    func stop(_ why: CaptureStopReason) {
        let running: [CaptureSource]? = shared.withLock { shared in
            guard shared.state == .running else {
                if shared.state == .configuring { shared.state = .finished }
                return nil
            }
            shared.state = .stopping
            shared.reason = why
            return shared.sources
        }
        guard let running else { return }
        for source in running { source.interrupt.raise() }
        for output in movieOutputs { output.noteStop(why) }
        Self.spawn("slomo-stop") {
            self.readers.wait()
            for output in self.movieOutputs { output.close() }
            for output in self.frameOutputs { output.close() }
            self.writers.wait()
            self.shared.withLock {
                $0.sources = []
                $0.state = .finished
            }
        }
    }

    /// Waits until the session has stopped and its files are finished; false on timeout.
    @discardableResult
    public func waitUntilFinished(timeout: Double? = nil) -> Bool {
        let finished: (Shared) -> Bool = { $0.state == .finished }
        guard let timeout else { return shared.wait(until: finished) { _ in true } }
        return shared.wait(until: finished, deadline: Date(timeIntervalSinceNow: timeout))
    }

    /// Starts the session (when not running yet), waits until `output` has finished its
    /// recording (a limit, `stopRunning()`, a lost source), and returns its result.
    public func record(until output: MovieFileOutput) async throws(CaptureError) -> RecordingResult {
        if currentState == .configuring {
            if !movieOutputs.contains(where: { $0 === output }) { try add(output) }
            try startRunning()
        }
        let session = self
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Self.spawn("slomo-wait") {
                session.waitUntilFinished()
                continuation.resume()
            }
        }
        guard let result = output.result else { throw CaptureError(.internalError, "the recording did not finish") }
        return result
    }

    /// A snapshot of what the session is doing, for live status.
    public func statistics() -> CaptureStatistics {
        let now = clock.now()
        let (total, rate): (Int, Double?) = shared.withLock { shared in
            (shared.received.reduce(0, +),
             shared.frameRateMeter.rate(frames: firstVideoInput.map { shared.received[$0] } ?? 0, at: now))
        }
        let movie = movieOutputs.first
        return CaptureStatistics(
            elapsed: Double(now) / 1e9, receivedFrames: total, measuredFrameRate: rate,
            recordedSeconds: movie?.recordedSeconds ?? 0,
            video: movie?.videoCounters ?? OutputCounters(), fileSize: movie?.fileSize ?? 0,
            audioLevels: meters.first?.levels ?? [], isPaused: movie?.isRecordingPaused ?? false)
    }

    /// Starts `body` on a worker thread named `name` that ends on its own (the session waits
    /// for its readers and writers with dispatch groups, not by joining), counting its packets
    /// and frames in the `LiveObjects` scope of the code that starts it.
    static func spawn(_ name: String, _ body: @escaping @Sendable () -> Void) {
        _ = PipelineWorker(name, scope: LiveObjects.currentScope, body: body)
    }
}

/// What a running session is doing: for the live status line.
public struct CaptureStatistics: Hashable, Sendable {
    /// Seconds since the session started.
    public var elapsed: Double
    /// Samples received from every input.
    public var receivedFrames: Int
    /// Frames per second the (first) video input delivered over the last second.
    public var measuredFrameRate: Double?
    /// Seconds in the movie file.
    public var recordedSeconds: Double
    /// The movie file's video counters (written = `delivered`).
    public var video: OutputCounters
    /// Bytes in the movie file.
    public var fileSize: Int64
    /// Levels of the first audio meter, per channel.
    public var audioLevels: [AudioLevelMeter.ChannelLevel]
    /// True while the movie file's recording is paused.
    public var isPaused: Bool
}
