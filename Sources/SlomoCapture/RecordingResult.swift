/// Why a recording or a capture session stopped.
public enum CaptureStopReason: Hashable, Sendable, CustomStringConvertible {
    /// `stop()` was called (Ctrl-C on the command line).
    case stopped
    /// The output reached its maximum duration.
    case maximumDuration
    /// The output would have grown past its maximum size.
    case maximumSize
    /// The disk would have had less free space than the output's minimum.
    case minimumFreeSpace
    /// A finite source (a file) came to its end.
    case sourceEnded(String)
    /// A device or stream went away (unplugged, X server gone, writer of a pipe killed).
    case deviceLost(String)
    /// Writing or encoding failed.
    case failed(String)

    /// A short stable name for JSON: `stopped`, `max-duration`, `max-size`, `min-free`,
    /// `source-ended`, `device-lost`, `failed`.
    public var code: String {
        switch self {
        case .stopped: "stopped"
        case .maximumDuration: "max-duration"
        case .maximumSize: "max-size"
        case .minimumFreeSpace: "min-free"
        case .sourceEnded: "source-ended"
        case .deviceLost: "device-lost"
        case .failed: "failed"
        }
    }

    /// True when the recording ended because something went wrong (not on a limit or a stop).
    public var isProblem: Bool {
        switch self {
        case .deviceLost, .failed: true
        default: false
        }
    }

    /// True when the source ended or went away: what was recorded is still written.
    var isSourceEnd: Bool {
        switch self {
        case .sourceEnded, .deviceLost: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .stopped: "stopped"
        case .maximumDuration: "reached the maximum duration"
        case .maximumSize: "reached the maximum file size"
        case .minimumFreeSpace: "stopped before the disk filled up (minimum free space reached)"
        case .sourceEnded(let what): "the source ended (\(what))"
        case .deviceLost(let what): "the source was lost (\(what))"
        case .failed(let what): "recording failed: \(what)"
        }
    }
}

/// What a `MovieFileOutput` recorded, why it stopped, and whether the file was finished
/// (AVFoundation's `AVErrorRecordingSuccessfullyFinishedKey`): true when the file was
/// finalised and plays to its end, even if the recording ended on a limit or a lost device.
public struct RecordingResult: Hashable, Sendable {
    public var path: String
    public var reason: CaptureStopReason
    public var finishedSuccessfully: Bool
    /// Seconds from the first to the end of the last written video frame (or audio).
    public var duration: Double
    /// Video frames written.
    public var videoFrames: Int
    /// The video counters at the end: received = written + dropped (nothing queued).
    public var counters: OutputCounters
    /// File size in bytes.
    public var fileSize: Int64
    /// Seconds of capture left out by pauses (`MovieFileOutput.pauseRecording()`).
    public var pausedSeconds: Double = 0
    /// A problem met while finishing, when there was one.
    public var finishingProblem: String?
}
