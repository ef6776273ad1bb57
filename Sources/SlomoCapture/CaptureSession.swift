import Foundation
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
    public enum State: Sendable { case configuring, running, stopping, finished }

    /// The session clock; time zero is when `startRunning()` was called.
    public private(set) var clock = SessionClock()
    public private(set) var inputs: [CaptureInput] = []
    /// Seconds a URL or device may take to open, and to deliver its first sample.
    public var openTimeout: Double = 10
    /// Seconds without a sample after which a source counts as lost.
    public var stallTimeout: Double = 3

    private let lock = NSCondition()
    private var state = State.configuring
    private var reason: CaptureStopReason?
    private var movieOutputs: [MovieFileOutput] = []
    private var frameOutputs: [FrameOutput] = []
    private var meters: [AudioLevelMeter] = []
    private var sources: [CaptureSource] = []
    private var received: [Int] = []
    private var rateWindow: [(time: Int64, frames: Int)] = []
    private var firstVideoInput: Int?
    private let readers = DispatchGroup()
    private let writers = DispatchGroup()

    public init() {}

    public var currentState: State { lock.withLock { state } }
    /// Why the session stopped, once it has.
    public var stopReason: CaptureStopReason? { lock.withLock { reason } }

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
        guard lock.withLock({ state == .configuring }) else {
            throw CaptureError(.invalidInput, "the session has already started: add inputs and outputs before startRunning()")
        }
    }

    /// Opens every input, creates the outputs' files and starts capturing. On failure nothing
    /// is left running and no file is left behind.
    public func startRunning() throws(CaptureError) {
        try configuring()
        guard !inputs.isEmpty else { throw CaptureError(.invalidInput, SettingIssue(.input, nil, "add at least one")) }
        for output in movieOutputs { try output.checkSettings() }
        for input in inputs where input.kind == .camera { try Self.checkCamera(input) }
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
        sources = opened
        lock.withLock { grantedRates = opened.map { $0.isAudio ? nil : $0.frameRate } }
        received = Array(repeating: 0, count: opened.count)
        firstVideoInput = opened.first(where: { !$0.isAudio })?.index
        lock.withLock {
            clock = SessionClock()
            state = .running
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
    public var grantedFrameRates: [Rational?] { lock.withLock { grantedRates } }
    private var grantedRates: [Rational?] = []

    /// A camera must exist, be a capture device, and list the format asked for: otherwise the
    /// error lists what it can do.
    static func checkCamera(_ input: CaptureInput) throws(CaptureError) {
        let device = try CaptureDevice.camera(at: input.mediaInput.url)
        var candidates = device.formats
        if let pixel = input.requestedPixelFormat {
            candidates = candidates.filter { $0.ffmpegPixelFormat == pixel || $0.fourCC.lowercased() == pixel.lowercased() }
        }
        if let request = input.requestedFormat { candidates = candidates.filter { $0.matches(request) } }
        guard candidates.isEmpty, input.requestedFormat != nil || input.requestedPixelFormat != nil else { return }
        let wanted = [input.requestedFormat?.description, input.requestedPixelFormat].compactMap { $0 }.joined(separator: " ")
        let offers = device.formats.map { "\($0.ffmpegPixelFormat) \($0)" }.joined(separator: "; ")
        throw CaptureError(.unsupportedFormat, "\(input.label) (\(device.name)) cannot capture \(wanted); it offers: \(offers)")
    }

    /// Stops capturing; the movie files are finalised. Safe from any thread, any number of times.
    public func stopRunning() { stop(.stopped) }

    func stop(_ why: CaptureStopReason) {
        let first: Bool = lock.withLock {
            guard state == .running else {
                if state == .configuring { state = .finished; lock.broadcast() }
                return false
            }
            state = .stopping
            reason = why
            return true
        }
        guard first else { return }
        for source in sources { source.interrupt.raise() }
        for output in movieOutputs { output.noteStop(why) }
        Self.spawn("slomo-stop") {
            self.readers.wait()
            for output in self.movieOutputs { output.close() }
            for output in self.frameOutputs { output.close() }
            self.writers.wait()
            self.lock.withLock {
                self.sources = []
                self.state = .finished
                self.lock.broadcast()
            }
        }
    }

    /// Waits until the session has stopped and its files are finished; false on timeout.
    @discardableResult
    public func waitUntilFinished(timeout: Double? = nil) -> Bool {
        let deadline = timeout.map { Date(timeIntervalSinceNow: $0) }
        return lock.withLock {
            while state != .finished {
                if let deadline {
                    if !lock.wait(until: deadline) { return state == .finished }
                } else {
                    lock.wait()
                }
            }
            return true
        }
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
        let counts: [Int] = lock.withLock { received }
        let total = counts.reduce(0, +)
        let rate: Double? = lock.withLock {
            let frames = firstVideoInput.map { counts[$0] } ?? 0
            rateWindow.append((now, frames))
            while let first = rateWindow.first, now - first.time > 1_000_000_000, rateWindow.count > 2 { rateWindow.removeFirst() }
            guard let first = rateWindow.first, now - first.time > 100_000_000 else { return nil }
            return Double(frames - first.frames) / (Double(now - first.time) / 1e9)
        }
        let movie = movieOutputs.first
        return CaptureStatistics(
            elapsed: Double(now) / 1e9, receivedFrames: total, measuredFrameRate: rate,
            recordedSeconds: movie?.recordedSeconds ?? 0,
            video: movie?.videoCounters ?? OutputCounters(), fileSize: movie?.fileSize ?? 0,
            audioLevels: meters.first?.levels ?? [], isPaused: movie?.isRecordingPaused ?? false)
    }

    // MARK: Reader threads

    private var isRunning: Bool { lock.withLock { state == .running } }

    private func read(_ source: CaptureSource) {
        if !source.cycle.isEmpty { return replay(source) }
        let start = clock.now()
        var lastSample = start
        var firstSampleTime: Int64?
        var firstSourceTicks: Int64?
        let interval = source.frameRate.map { 1 / $0.doubleValue } ?? 0.02
        let stall = max(stallTimeout, 20 * interval)
        while isRunning {
            source.interrupt.setDeadline(afterSeconds: firstSampleTime == nil ? max(openTimeout, stall) : stall)
            let packet: Packet?
            do {
                packet = try source.demuxer.read()
            } catch {
                if !isRunning { break }
                if error.is(.tryAgain) {
                    if Double(clock.now() - lastSample) / 1e9 > stall {
                        stop(.deviceLost("\(source.input.label): no frames for \(Int(stall)) s"))
                        break
                    }
                    usleep(1000)
                    continue
                }
                let what = source.interrupt.isRaised ? "no data for \(Int(stall)) s" : error.message
                stop(.deviceLost("\(source.input.label): \(what)"))
                break
            }
            guard let packet else {
                if source.input.pacesToTimestamps {
                    stop(.sourceEnded("\(source.input.label): end of file"))
                } else {
                    stop(.deviceLost("\(source.input.label): the stream ended"))
                }
                break
            }
            guard packet.streamIndex == source.streamIndex else { continue }
            if source.input.pacesToTimestamps, let pts = packet.pts {
                // A file is read at its native rate, like `ffmpeg -re`.
                if firstSourceTicks == nil { firstSourceTicks = pts }
                let due = start + source.restamper.nanoseconds(pts - firstSourceTicks!)
                let wait = due - clock.now()
                if wait > 0 { usleep(UInt32(min(wait / 1000, 1_000_000))) }
            }
            let arrival = clock.now()
            lastSample = arrival
            if firstSampleTime == nil { firstSampleTime = arrival }
            if let decoder = source.decoder {
                let frames: [Frame]
                do {
                    frames = try decoder.decode(packet)
                } catch {
                    continue  // a damaged sample: skip it, the stream goes on
                }
                for frame in frames {
                    let time = source.restamper.sessionTime(pts: frame.pts ?? frame.bestEffortPTS, arrival: arrival)
                    deliver(frame: frame, packet: source.isRaw ? nil : packet, time: time, source: source)
                }
            } else {
                let time = source.restamper.sessionTime(pts: packet.pts ?? packet.dts, arrival: arrival)
                deliver(frame: nil, packet: packet, time: time, source: source)
            }
        }
    }

    /// Releases the test pattern's pre-rendered cycle at its frame rate, by reference: no
    /// drawing, copying or allocating per frame. Like lavfi's `realtime`, a reader that was held
    /// up releases the frames it owes at once, stamped with their own spacing.
    private func replay(_ source: CaptureSource) {
        let start = clock.now()
        var index: Int64 = 0
        while isRunning {
            let pts = index * source.cycleStep
            let wait = start + source.restamper.nanoseconds(pts) - clock.now()
            if wait > 0 {
                usleep(UInt32(min(wait / 1000, 100_000)))
                continue
            }
            let frame: Frame
            do { frame = try source.cycle[Int(index % Int64(source.cycle.count))].clone() } catch {
                stop(.failed("\(source.input.label): \(error)"))
                break
            }
            frame.pts = pts
            deliver(frame: frame, packet: nil, time: source.restamper.sessionTime(pts: pts, arrival: clock.now()), source: source)
            index += 1
        }
    }

    /// Hands a sample to every output, each its own reference. A reference FFmpeg cannot make
    /// (out of memory) stops the session as failed.
    private func deliver(frame: Frame?, packet: Packet?, time: Int64, source: CaptureSource) {
        lock.withLock { received[source.index] += 1 }
        if source.isAudio, let frame { for meter in meters { meter.process(frame) } }
        do throws(FFmpegError) {
            if !source.isAudio, let frame {
                for output in frameOutputs { output.offer(try frame.clone(), time: time, input: source.index) }
            }
            for output in movieOutputs {
                let payload: CapturedSample.Payload
                if source.isRaw, let frame { payload = .frame(movieOutputs.count > 1 ? try frame.clone() : frame) }
                else if let packet { payload = .packet(try packet.clone()) }
                else { continue }
                output.offer(CapturedSample(payload: payload, input: source.index, time: time), isAudio: source.isAudio)
            }
        } catch {
            stop(.failed("\(source.input.label): \(error)"))
        }
    }

    static func spawn(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.start()
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
