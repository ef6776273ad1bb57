import SlomoMedia

/// The one monotonic clock of a capture session: nanoseconds of `CLOCK_MONOTONIC`
/// (`MonotonicClock`) since the session started. Every source's timestamps are mapped onto it
/// (`SourceRestamper`).
public struct SessionClock: Sendable {
    /// `CLOCK_MONOTONIC` nanoseconds at the session's time zero.
    public let origin: Int64

    public init() { origin = MonotonicClock.nanoseconds() }

    /// Nanoseconds since the session started.
    public func now() -> Int64 { MonotonicClock.nanoseconds() - origin }
}
