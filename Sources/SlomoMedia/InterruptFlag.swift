import CFFmpeg
import Synchronization

/// A flag that FFmpeg polls while it blocks in a read (`AVIOInterruptCB`): raising it makes a
/// blocked `avformat_open_input` or `av_read_frame` return `AVERROR_EXIT`, so that a capture can
/// stop a source that sends nothing (a silent stream, a stalled pipe). Raising it from any
/// thread is safe. It can also carry a deadline, after which it counts as raised.
public final class InterruptFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    /// `MonotonicClock` nanoseconds after which the flag counts as raised; 0 for none.
    private let deadline = Atomic<Int64>(0)

    public init() {}

    /// Makes blocked reads return.
    public func raise() { raised.store(true, ordering: .releasing) }

    /// True once raised or past its deadline.
    public var isRaised: Bool {
        if raised.load(ordering: .acquiring) { return true }
        let limit = deadline.load(ordering: .relaxed)
        return limit != 0 && MonotonicClock.nanoseconds() >= limit
    }

    /// Raises the flag `seconds` from now unless cleared before (nil clears it).
    public func setDeadline(afterSeconds seconds: Double?) {
        deadline.store(seconds.map { MonotonicClock.nanoseconds() + Int64(max(0, $0) * 1e9) } ?? 0,
                       ordering: .relaxed)
    }

    /// The flag as FFmpeg's callback structure; the flag must outlive the context using it.
    var callback: AVIOInterruptCB {
        AVIOInterruptCB(callback: { opaque in
            guard let opaque else { return 0 }
            return Unmanaged<InterruptFlag>.fromOpaque(opaque).takeUnretainedValue().isRaised ? 1 : 0
        }, opaque: Unmanaged.passUnretained(self).toOpaque())
    }
}
