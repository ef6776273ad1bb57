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
public final class CaptureSession: Sendable {
    /// Where a session is in its life: inputs and outputs are added while `configuring`.
    public enum State: Sendable { case configuring, running, stopping, finished }

    /// What the caller gives the session while configuring it.
    struct Configuration {
        var inputs: [CaptureInput] = []
        var movieOutputs: [MovieFileOutput] = []
        var frameOutputs: [FrameOutput] = []
        var meters: [AudioLevelMeter] = []
        /// Cameras whose controls are set before the recording, and held during it.
        var cameras: [(camera: CameraControls, setup: CameraSetup)] = []
        var openTimeout: Double = 10
        var stallTimeout: Double = 3
    }

    /// What the session's threads and its callers share; reachable only inside `shared`'s lock.
    struct Shared {
        var state = State.configuring
        var reason: CaptureStopReason?
        var configuration = Configuration()
        var clock = SessionClock()
        /// What the running session connects, from `startRunning()` until it has finished.
        var wiring: Wiring?
        /// The input whose frames `frameRateMeter` counts.
        var firstVideoInput: Int?
        /// The reader threads (one per input) and the outputs' writer threads, until joined.
        var readers: [PipelineWorker] = []
        var writers: [PipelineWorker] = []
        var grantedRates: [Rational?] = []
        /// Samples received from each input.
        var received: [Int] = []
        var frameRateMeter = FrameRateMeter()
        /// The cameras held while the session runs (given back when it stops).
        var heldCameras: [CameraControls] = []
        /// Callers of `record(until:)` waiting for the session to finish.
        var finishWaiters: [CheckedContinuation<Void, Never>] = []

        /// Marks the session finished; returns the waiters to resume (outside the lock).
        mutating func markFinished() -> [CheckedContinuation<Void, Never>] {
            state = .finished
            defer { finishWaiters = [] }
            return finishWaiters
        }
    }

    let shared = Guarded(Shared())

    public init() {}

    public var currentState: State { shared.read(\.state) }
    /// Why the session stopped, once it has.
    public var stopReason: CaptureStopReason? { shared.read(\.reason) }
    /// The session clock; time zero is when `startRunning()` was called.
    public var clock: SessionClock { shared.read(\.clock) }
    /// The inputs added so far.
    public var inputs: [CaptureInput] { shared.read(\.configuration.inputs) }

    /// Seconds a URL or device may take to open, and to deliver its first sample (positive;
    /// read when the session starts).
    public var openTimeout: Double {
        get { shared.read(\.configuration.openTimeout) }
        set { shared.withLock { $0.configuration.openTimeout = newValue } }
    }

    /// Seconds without a sample after which a source counts as lost (positive; read when the
    /// session starts).
    public var stallTimeout: Double {
        get { shared.read(\.configuration.stallTimeout) }
        set { shared.withLock { $0.configuration.stallTimeout = newValue } }
    }

    /// Adds an input (before `startRunning()`).
    public func add(_ input: CaptureInput) throws(CaptureError) {
        try configure { $0.inputs.append(input) }
    }

    /// Adds a movie file output (before `startRunning()`).
    @discardableResult
    public func add(_ output: MovieFileOutput) throws(CaptureError) -> MovieFileOutput {
        try configure { (configuration: inout Configuration) throws(CaptureError) in
            guard configuration.movieOutputs.allSatisfy({ $0.settings.path != output.settings.path }) else {
                throw CaptureError(.outputProblem, "\(output.settings.path): already recorded by this session")
            }
            configuration.movieOutputs.append(output)
        }
        return output
    }

    /// Adds a frame output (before `startRunning()`).
    public func add(_ output: FrameOutput) throws(CaptureError) {
        try configure { $0.frameOutputs.append(output) }
    }

    /// Sets a camera's controls when the session starts (before its inputs open), writes the
    /// controls in force into every movie's metadata (`camera`, `camera_controls`), and holds
    /// the camera while the session runs, so that no other program changes it (before
    /// `startRunning()`; `CameraControls.setup` makes and checks `setup`).
    public func add(_ camera: CameraControls, setup: CameraSetup) throws(CaptureError) {
        try configure { $0.cameras.append((camera, setup)) }
    }

    /// Adds audio level meters fed by every audio input (before `startRunning()`).
    public func add(_ meter: AudioLevelMeter) throws(CaptureError) {
        try configure { $0.meters.append(meter) }
    }

    /// Changes the configuration, which only a session that has not started allows.
    private func configure(_ change: (inout Configuration) throws(CaptureError) -> Void) throws(CaptureError) {
        let outcome: Result<Void, CaptureError> = shared.withLock { shared in
            guard shared.state == .configuring else { return .failure(Self.alreadyStarted) }
            do throws(CaptureError) { try change(&shared.configuration) } catch { return .failure(error) }
            return .success(())
        }
        try outcome.get()
    }

    private static let alreadyStarted =
        CaptureError(.invalidInput, "the session has already started: add inputs and outputs before startRunning()")

    /// Opens every input, creates the outputs' files and starts capturing. On failure nothing
    /// is left running and no file is left behind.
    public func startRunning() throws(CaptureError) {
        guard let configuration = shared.read({ $0.state == .configuring ? $0.configuration : nil }) else {
            throw Self.alreadyStarted
        }
        try Self.check(configuration)
        for input in configuration.inputs where input.kind == .camera { try CaptureDevice.checkCamera(for: input) }
        var cameraTags: [String: String] = [:]
        for (index, (camera, setup)) in configuration.cameras.enumerated() {
            let tags = CameraControls.metadata(camera: camera.name, controls: try camera.apply(setup))
            for (key, value) in tags { cameraTags[index == 0 ? key : "\(key).\(index + 1)"] = value }
        }
        var opened: [CaptureSource] = []
        for (index, input) in configuration.inputs.enumerated() {
            let source = try CaptureSource(index: index, input: input, openTimeout: configuration.openTimeout)
            let wantsFrames = !source.isAudio && !configuration.frameOutputs.isEmpty
            let wantsSamples = source.isAudio && !configuration.meters.isEmpty
            if input.kind == .testPattern { try source.prerender() }
            else if source.isRaw || wantsFrames || wantsSamples { try source.makeDecoder() }
            opened.append(source)
        }
        // FFmpeg's handles have set the formats and started the streams: hold the cameras now.
        var held: [CameraControls] = []
        for (camera, _) in configuration.cameras {
            do throws(CaptureError) { try camera.hold(true) } catch {
                for done in held { try? done.hold(false) }
                throw error
            }
            held.append(camera)
        }
        // Each movie's writer thread starts as soon as its file is ready, and owns it from then.
        var writers: [PipelineWorker] = []
        for output in configuration.movieOutputs {
            output.onStop { [weak self] reason in self?.stop(reason) }
            let writer: RecordingWriter
            do {
                writer = try output.prepare(sources: opened, sessionTags: cameraTags)
            } catch {
                for (done, worker) in zip(configuration.movieOutputs, writers) {
                    done.close()
                    worker.join()
                }
                for camera in held { try? camera.hold(false) }
                throw error
            }
            writers.append(PipelineWorker("slomo-writer") { writer.run() })
        }
        let wiring = Wiring(configuration: configuration, sources: opened, clock: SessionClock())
        let deliveries = configuration.frameOutputs.map { _ in PipelineWorker("slomo-frames") }
        let readers = opened.map { PipelineWorker("slomo-reader-\($0.index)") }
        shared.withLock {
            $0.wiring = wiring
            $0.clock = wiring.clock
            $0.firstVideoInput = opened.first(where: { !$0.isAudio })?.index
            $0.readers = readers
            $0.writers = writers + deliveries
            $0.grantedRates = opened.map { $0.isAudio ? nil : $0.frameRate }
            $0.received = Array(repeating: 0, count: opened.count)
            $0.heldCameras = held
            $0.state = .running
        }
        for (worker, output) in zip(deliveries, configuration.frameOutputs) { worker.start { output.runDelivery() } }
        for (worker, source) in zip(readers, opened) {
            source.handOn()
            worker.start { self.read(source, wiring) }
        }
    }

    /// The session-wide limits and the outputs' settings, checked before anything is opened.
    private static func check(_ configuration: Configuration) throws(CaptureError) {
        guard !configuration.inputs.isEmpty else { throw CaptureError(.invalidInput, SettingIssue(.input, nil, "add at least one")) }
        for (setting, seconds) in [(Setting.openTimeout, configuration.openTimeout), (.stallTimeout, configuration.stallTimeout)]
        where !(seconds > 0 && seconds.isFinite) {
            throw CaptureError(.invalidLimit, SettingIssue(setting, String(format: "%g", seconds), "must be a positive number of seconds",
                                                           allowed: SettingIssue.positive))
        }
        for output in configuration.movieOutputs { try output.checkSettings() }
    }

    /// The frame rate each input really delivers, read back after opening (drivers round the
    /// rate asked for silently); nil for audio inputs and before `startRunning()`.
    public var grantedFrameRates: [Rational?] { shared.read(\.grantedRates) }

    /// True while capturing, until a stop is asked for.
    var isRunning: Bool { shared.read { $0.state == .running } }

    /// Stops capturing; the movie files are finalised. Safe from any thread, any number of times.
    public func stopRunning() { stop(.stopped) }

    func stop(_ why: CaptureStopReason) {
        let (wiring, waiters): (Wiring?, [CheckedContinuation<Void, Never>]) = shared.withLock { shared in
            guard shared.state == .running else { return (nil, shared.state == .configuring ? shared.markFinished() : []) }
            shared.state = .stopping
            shared.reason = why
            return (shared.wiring, [])
        }
        for waiter in waiters { waiter.resume() }
        guard let wiring else { return }
        for camera in shared.withLock({ shared in defer { shared.heldCameras = [] }; return shared.heldCameras }) {
            try? camera.hold(false)
        }
        for source in wiring.sources { source.interrupt.raise() }
        for output in wiring.movieOutputs { output.noteStop(why) }
        _ = PipelineWorker("slomo-stop") {
            self.closeOutputs()
            let waiters = self.shared.withLock { shared in
                shared.wiring = nil
                shared.readers = []
                shared.writers = []
                return shared.markFinished()
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Waits for the readers, then closes the outputs and waits for their writers (the stopping
    /// session's own thread). Nothing of the session is held when it returns.
    private func closeOutputs() {
        guard let (wiring, readers, writers) = shared.read({ s in s.wiring.map { ($0, s.readers, s.writers) } }) else { return }
        for reader in readers { reader.join() }
        for output in wiring.movieOutputs { output.close() }
        for output in wiring.frameOutputs { output.close() }
        for writer in writers { writer.join() }
    }

    /// A snapshot of what the session is doing, for live status.
    public func statistics() -> CaptureStatistics {
        let (now, total, rate, configuration) = shared.withLock { shared in
            let now = shared.clock.now()
            return (now, shared.received.reduce(0, +),
                    shared.frameRateMeter.rate(frames: shared.firstVideoInput.map { shared.received[$0] } ?? 0, at: now),
                    shared.configuration)
        }
        let movie = configuration.movieOutputs.first
        return CaptureStatistics(
            elapsed: Double(now) / 1e9, receivedFrames: total, measuredFrameRate: rate,
            recordedSeconds: movie?.recordedSeconds ?? 0,
            video: movie?.videoCounters ?? OutputCounters(), fileSize: movie?.fileSize ?? 0,
            audioLevels: configuration.meters.first?.levels ?? [], isPaused: movie?.isRecordingPaused ?? false)
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
