import SlomoMedia

/// The free space on the disk a recording goes to, measured at most every 100 ms (a
/// `statvfs` for every packet would cost more than the packet) and again as soon as a
/// fragment has gone to disk. Space that cannot be measured counts as unlimited.
struct FreeSpaceProbe {
    private var measuredAt: Int64?
    private var bytes: Int64 = .max

    /// Bytes free near `path`, from the last measure unless it is older than 100 ms.
    mutating func bytesFree(near path: String) -> Int64 {
        let now = MonotonicClock.nanoseconds()
        if let measuredAt, now - measuredAt <= 100_000_000 { return bytes }
        bytes = (try? FileSystem.freeSpace(near: path)) ?? .max
        measuredAt = now
        return bytes
    }

    /// Measures again at the next call: a fragment has just been written.
    mutating func remeasure() { measuredAt = nil }
}
