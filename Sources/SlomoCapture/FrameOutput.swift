import Foundation
import SlomoConcurrency
import SlomoCore
import SlomoMedia

/// A decoded video frame handed to a `FrameOutput` callback.
public struct CapturedFrame: @unchecked Sendable {
    /// The picture (the callback owns this reference).
    public let frame: Frame
    /// When it was captured, on the session clock (seconds since the session started).
    public let time: MediaTime
    /// 0, 1, 2, … in the order the output received frames (dropped ones included).
    public let sequenceNumber: Int
    /// The index of the input in the session.
    public let input: Int
}

/// Delivers decoded video frames to a callback on its own thread, like
/// AVCaptureVideoDataOutput: the capture thread never waits for the callback.
///
/// Frames wait in a bounded queue. With `alwaysDiscardsLateFrames` the queue holds one frame
/// and a newer frame replaces it (the callback always gets the newest frame there is); without,
/// up to `backlog` frames wait and a frame that finds the queue full is dropped.
/// `minFrameDuration` throttles by timestamp. Every drop is counted with its reason, and
/// `counters.received == delivered + dropped + queued` holds whenever the counters are read.
public final class FrameOutput: Sendable {
    public let alwaysDiscardsLateFrames: Bool
    public let backlog: Int
    public let minFrameDuration: MediaTime?
    private let handler: @Sendable (CapturedFrame) -> Void

    /// Everything the capture and delivery threads share; the counters change together with
    /// the queue, so that they agree at every read.
    private struct Shared {
        var items: [CapturedFrame] = []
        var counters = OutputCounters()
        var closed = false
        var lastAccepted: Int64?
        var newestReceived = -1
        var stale = 0
    }

    private let shared = Guarded(Shared())

    public init(alwaysDiscardsLateFrames: Bool = true, backlog: Int = 4, minFrameDuration: MediaTime? = nil,
                handler: @escaping @Sendable (CapturedFrame) -> Void) {
        self.alwaysDiscardsLateFrames = alwaysDiscardsLateFrames
        self.backlog = alwaysDiscardsLateFrames ? 1 : max(1, backlog)
        self.minFrameDuration = minFrameDuration
        self.handler = handler
    }

    /// Received, delivered, dropped (by reason) and queued, read atomically.
    public var counters: OutputCounters { shared.read(\.counters) }

    /// Frames delivered although a newer frame had been received when they were taken from
    /// the queue. Always 0 with `alwaysDiscardsLateFrames`.
    public var staleDeliveries: Int { shared.read(\.stale) }

    /// Capture side: offers a frame; never blocks.
    func offer(_ frame: Frame, time: Int64, input: Int) {
        shared.withLock { shared in
            guard !shared.closed else { return }
            shared.counters.received += 1
            shared.newestReceived += 1
            if let minimum = minFrameDuration, let last = shared.lastAccepted,
               time - last < minimum.nanoseconds {
                shared.counters.droppedByThrottle += 1
                return
            }
            let captured = CapturedFrame(frame: frame, time: MediaTime(value: time, timescale: 1_000_000_000),
                                         sequenceNumber: shared.newestReceived, input: input)
            if shared.items.count >= backlog {
                if alwaysDiscardsLateFrames {
                    shared.items.removeFirst()
                    shared.counters.queued -= 1
                    shared.counters.droppedAsLate += 1
                } else {
                    shared.counters.droppedBecauseQueueFull += 1
                    return
                }
            }
            shared.lastAccepted = time
            shared.items.append(captured)
            shared.counters.queued += 1
        }
    }

    /// Delivery thread: calls the handler until closed, then drops what is left.
    func runDelivery() {
        while let next = nextDelivery() { handler(next) }
    }

    /// The next frame to deliver, waiting for one; nil once closed (what is still queued is
    /// dropped then).
    private func nextDelivery() -> CapturedFrame? {
        shared.wait(until: { !$0.items.isEmpty || $0.closed }) { shared in
            if shared.closed {
                shared.counters.droppedAtStop += shared.items.count
                shared.counters.queued -= shared.items.count
                shared.items.removeAll()
                return nil
            }
            let next = shared.items.removeFirst()
            shared.counters.queued -= 1
            shared.counters.delivered += 1
            if next.sequenceNumber < shared.newestReceived && alwaysDiscardsLateFrames && minFrameDuration == nil {
                shared.stale += 1
            }
            return next
        }
    }

    /// No more frames come; frames still queued are dropped (counted `droppedAtStop`).
    func close() {
        shared.withLock { $0.closed = true }
    }
}
