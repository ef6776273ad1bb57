import Glibc

/// The one monotonic clock of a capture session: nanoseconds of `CLOCK_MONOTONIC` since the
/// session started. Every source's timestamps are mapped onto it (`SourceRestamper`).
public struct SessionClock: Sendable {
    /// `CLOCK_MONOTONIC` nanoseconds at the session's time zero.
    public let origin: Int64

    public init() { origin = SessionClock.monotonicNanoseconds() }

    /// Nanoseconds since the session started.
    public func now() -> Int64 { SessionClock.monotonicNanoseconds() - origin }

    static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
