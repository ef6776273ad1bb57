/// A recording's own time line: session time since the first recorded sample, minus every
/// pause. While paused, samples are left out; on resume, time goes on from where it paused,
/// one sample interval after the last sample recorded, so the file has no gap where the pause
/// was and its timestamps keep increasing.
///
/// Each input keeps its last recorded time and the interval before it; the first sample after
/// a resume is placed that interval after its input's last one, and every input shifts by the
/// same amount, so sound and picture stay in step. A copied inter-coded video input (one that
/// needs a keyframe to start from) stays paused until its next keyframe. Not thread-safe: its
/// owner locks.
public struct RecordingTimeline: Sendable {
    /// Session time (nanoseconds) of the first recorded sample.
    public private(set) var start: Int64?
    public private(set) var isPaused = false
    /// Nanoseconds of session time left out by pauses so far.
    public private(set) var pausedNanoseconds: Int64 = 0
    private var resuming = false
    private var waitingForKeyframe: Set<Int> = []
    private var last: [Int: (time: Int64, interval: Int64)] = [:]

    public init() {}

    /// Leaves out samples from now on.
    public mutating func pause() {
        isPaused = true
        resuming = false
    }

    /// Records again from the next sample; inputs in `keyframeInputs` only from their next keyframe.
    public mutating func resume(keyframeInputs: Set<Int> = []) {
        guard isPaused else { return }
        isPaused = false
        resuming = start != nil
        waitingForKeyframe = start != nil ? keyframeInputs : []
    }

    /// The recording time (nanoseconds since the first recorded sample) of a sample of `input`
    /// that arrived at session time `time`, or nil when it falls into a pause.
    public mutating func place(_ time: Int64, input: Int, isKeyframe: Bool = true) -> Int64? {
        if isPaused { return nil }
        if waitingForKeyframe.contains(input) {
            guard isKeyframe else { return nil }
            waitingForKeyframe.remove(input)
        }
        if start == nil { start = time }
        if resuming {
            resuming = false
            let resumeAt = last[input].map { $0.time + $0.interval } ?? recordedEnd
            pausedNanoseconds = max(pausedNanoseconds, time - resumeAt)
        }
        let shifted = time - pausedNanoseconds
        if let previous = last[input] {
            last[input] = (shifted, max(0, shifted - previous.time))
        } else {
            last[input] = (shifted, 0)
        }
        return shifted - start!
    }

    /// The end of what every input has recorded so far, in shifted session time.
    private var recordedEnd: Int64 {
        last.values.map { $0.time + $0.interval }.max() ?? start ?? 0
    }
}
