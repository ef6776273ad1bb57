#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `CLOCK_MONOTONIC`, the one time source of slomo's threads: a capture session's clock (which
/// camera timestamps share), FFmpeg's read deadlines (`InterruptFlag`), free-space probes, and
/// the player's refresh pacing, sound-device callbacks and presentation log.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary moment before the process started; never goes back.
    public static func nanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// `CLOCK_REALTIME` minus `CLOCK_MONOTONIC` now, in seconds: what turns a monotonic time
    /// into a wall-clock one (for logs that other programs line up).
    public static func realtimeOffset() -> Double {
        var real = timespec(), monotonic = timespec()
        clock_gettime(CLOCK_REALTIME, &real)
        clock_gettime(CLOCK_MONOTONIC, &monotonic)
        return Double(real.tv_sec - monotonic.tv_sec) + Double(real.tv_nsec - monotonic.tv_nsec) / 1e9
    }
}
