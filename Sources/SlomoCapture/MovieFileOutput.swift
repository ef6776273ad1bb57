import Foundation
import SlomoConcurrency
import SlomoCore
import SlomoMedia

/// Records a session's inputs into a fragmented MOV/MP4 file.
///
/// Raw sources are encoded in real time (libx264 `ultrafast` + `zerolatency` by default);
/// compressed ones (MJPEG or H.264 cameras, streams) are copied. The file is written in place
/// under its own name, as an empty `moov` followed by `moof`+`mdat` fragments of about
/// `fragmentInterval`, each pushed to the kernel when it is complete: a crash or SIGKILL loses
/// at most the fragment being written, and what is on disk plays. (Writing to a temporary name
/// and renaming at the end, as exports do, would leave a crashed recording under a hidden name.)
///
/// A bounded queue sits between the capture threads and the writer thread: the capture side
/// never blocks, and every frame that does not fit is counted as dropped.
///
/// The output is `Sendable` as the compiler checks it: what the capture threads, the writer
/// thread and callers share is in `shared`'s lock, and the file and its tracks belong to the
/// `RecordingWriter` that `prepare` hands to the writer thread.
public final class MovieFileOutput: Sendable {
    public let settings: Settings
    let limits: RecordingLimits
    /// Counters, time line, limits reached, tags, result, the queue and who to tell when the
    /// recording stops: shared by every thread.
    let shared = Guarded(Shared())

    public convenience init(_ path: String, fragmentInterval: MediaTime = .seconds(2), maxDuration: MediaTime? = nil,
                            maxSize: Int64? = nil, minFreeSpace: Int64? = 64 << 20) {
        var settings = Settings(path: path)
        settings.fragmentInterval = fragmentInterval
        settings.maxDuration = maxDuration
        settings.maxSize = maxSize
        settings.minFreeSpace = minFreeSpace
        self.init(settings: settings)
    }

    public init(settings: Settings) {
        self.settings = settings
        limits = settings.limits
    }

    /// The video counters now: received, written (`delivered`), dropped by reason, queued.
    public var videoCounters: OutputCounters { shared.withLock { $0.counters } }
    /// Bytes in the file so far.
    public var fileSize: Int64 { shared.withLock { $0.bytesOnDisk } }
    /// Seconds recorded so far.
    public var recordedSeconds: Double {
        shared.withLock { Double(max($0.lastVideoEnd, $0.lastAudioEnd)) / 1e9 }
    }
    /// The result, once the recording has finished.
    public var result: RecordingResult? { shared.withLock { $0.finalResult } }

    // MARK: Pause and resume (any thread)

    /// Leaves samples out of the file from the next one on, until `resumeRecording()`
    /// (AVCaptureFileOutput's `pauseRecording()`). They are counted as `skippedWhilePaused`,
    /// not as drops, and the recording's time line stands still meanwhile.
    public func pauseRecording() { shared.withLock { $0.timeline.pause() } }

    /// Records again from the next sample, continuing the time line where it paused: the
    /// first sample after the pause follows the last one before it by one sample interval.
    /// Copied inter-coded video resumes at its next keyframe.
    public func resumeRecording() { shared.withLock { $0.timeline.resume(keyframeInputs: $0.copiedVideoInputs) } }

    /// True between `pauseRecording()` and `resumeRecording()`.
    public var isRecordingPaused: Bool { shared.withLock { $0.timeline.isPaused } }

    /// Seconds of capture left out of the file by pauses so far.
    public var pausedSeconds: Double { shared.withLock { Double($0.timeline.pausedNanoseconds) / 1e9 } }

    // MARK: Capture side (capture threads; never blocks)

    /// Offers a sample. Returns false when the recording is over (a limit was reached).
    @discardableResult
    func offer(_ sample: sending CapturedSample, isAudio: Bool) -> Bool {
        var tell: (@Sendable (CaptureStopReason) -> Void)?
        let accepted: Bool = shared.withLock(moving: sample) { shared, sample in
            if shared.stopReason != nil { return false }
            // With video, the recording starts at its first frame: sound before it is left out,
            // so that `maxDuration` counts exactly in frames and both start together.
            if isAudio && shared.hasVideo && shared.timeline.start == nil { return true }
            guard let offset = shared.timeline.place(sample.time, input: sample.input, isKeyframe: sample.isKeyframe) else {
                shared.count(audio: isAudio) { $0.skippedWhilePaused += 1 }
                return true
            }
            if limits.reached(by: RecordingLimits.Measurement(recordedTime: offset)) == .maximumDuration {
                // With video, its first frame at the limit ends the recording: sound past the
                // limit is left out until then (a sound block could otherwise arrive first and
                // cut the last frames), unless the video stays away a second longer.
                let secondEarlier = RecordingLimits.Measurement(recordedTime: offset - 1_000_000_000)
                if isAudio && shared.hasVideo && limits.reached(by: secondEarlier) == nil { return true }
                shared.stopReason = .maximumDuration
                tell = shared.onStop
                return false
            }
            shared.count(audio: isAudio) { $0.received += 1 }
            // The queue is never failed, only finished: a push refuses (full or finished), never throws.
            guard let queue = shared.queue,
                  (try? queue.push(CapturedSample(payload: sample.payload, input: sample.input, time: offset))) == true else {
                shared.count(audio: isAudio) { $0.droppedBecauseQueueFull += 1 }
                return true
            }
            shared.count(audio: isAudio) { $0.queued += 1 }
            return true
        }
        tell?(.maximumDuration)
        return accepted
    }

    /// No more samples come: the writer drains the queue and finishes the file.
    func close() { shared.read(\.queue)?.finish() }

    /// Calls `handler` (once) when a limit or an error ends the recording from the output's
    /// side: the session stops then (set before it starts, called on a capture or writer thread).
    func onStop(_ handler: @escaping @Sendable (CaptureStopReason) -> Void) {
        shared.withLock { $0.onStop = handler }
    }

    /// Marks the recording as stopped for `reason` from outside (the session).
    func noteStop(_ reason: CaptureStopReason) {
        shared.withLock { if $0.stopReason == nil { $0.stopReason = reason } }
    }
}
