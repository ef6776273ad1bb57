import SlomoCore

/// The limits that end a recording by themselves: a maximum duration, a maximum file size and
/// a minimum of free disk space. Whether one is reached is decided from measured values only,
/// so the decision needs no file, disk or encoder.
struct RecordingLimits: Hashable, Sendable {
    var maximumDuration: MediaTime?
    /// Bytes the file may take.
    var maximumSize: Int64?
    /// Bytes the disk holding the file must keep free.
    var minimumFreeSpace: Int64?

    /// What an output measured before recording more; nil for what it did not measure.
    struct Measurement: Hashable, Sendable {
        /// Nanoseconds on the recording's time line of the sample about to be recorded.
        var recordedTime: Int64?
        /// Bytes the file would take once what is about to be written is in it.
        var fileSize: Int64?
        /// Bytes the disk would have free once what is about to be written is on it.
        var freeSpace: Int64?
    }

    /// The limit `measurement` reaches, if any. The duration is reached at the limit itself,
    /// the size past it, the free space below it. When several are reached, the first of
    /// maximum duration, maximum size and minimum free space wins.
    func reached(by measurement: Measurement) -> CaptureStopReason? {
        if let limit = maximumDuration, let time = measurement.recordedTime, time >= limit.nanoseconds {
            return .maximumDuration
        }
        if let limit = maximumSize, let size = measurement.fileSize, size > limit { return .maximumSize }
        if let minimum = minimumFreeSpace, let free = measurement.freeSpace, free < minimum { return .minimumFreeSpace }
        return nil
    }
}
