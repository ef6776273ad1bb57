import Foundation
import SlomoConcurrency
import SlomoCore
import SlomoMedia

/// A decoded video frame handed to a `FrameOutput` callback, which gets it as `sending`: the
/// frame is moved from the capture thread to the callback, never shared.
public struct CapturedFrame {
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
/// Frames wait in a `PipelineQueue`. With `alwaysDiscardsLateFrames` it holds one frame and a
/// newer frame replaces it (`.replaceOldest`: the callback always gets the newest frame there
/// is); without, up to `backlog` frames wait and a frame that finds the queue full is dropped
/// (`.dropNewest`). `minFrameDuration` throttles by timestamp. Every drop is counted with its
/// reason, and `counters.received == delivered + dropped + queued` holds whenever the counters
/// are read.
public final class FrameOutput: Sendable {
    public let alwaysDiscardsLateFrames: Bool
    public let backlog: Int
    public let minFrameDuration: MediaTime?
    private let handler: @Sendable (sending CapturedFrame) -> Void

    /// What the capture side decides before the queue: offers, throttling, closing. Offers,
    /// `close` and reading the counters hold this lock, so the queue's counts seen under it
    /// change only by the delivery thread's pops, which keep the sum.
    private struct Intake {
        var received = 0
        var throttled = 0
        var droppedAtStop = 0
        var closed = false
        var lastAccepted: Int64?
    }

    private let intake = Guarded(Intake())
    private let queue: PipelineQueue<CapturedFrame>

    public init(alwaysDiscardsLateFrames: Bool = true, backlog: Int = 4, minFrameDuration: MediaTime? = nil,
                handler: @escaping @Sendable (sending CapturedFrame) -> Void) {
        self.alwaysDiscardsLateFrames = alwaysDiscardsLateFrames
        self.backlog = alwaysDiscardsLateFrames ? 1 : max(1, backlog)
        self.minFrameDuration = minFrameDuration
        self.handler = handler
        queue = PipelineQueue(capacity: self.backlog, whenFull: alwaysDiscardsLateFrames ? .replaceOldest : .dropNewest)
    }

    /// Received, delivered, dropped (by reason) and queued, read atomically.
    public var counters: OutputCounters {
        intake.withLock { intake in
            let counts = queue.counts
            var counters = OutputCounters()
            counters.received = intake.received
            counters.delivered = counts.taken
            counters.queued = counts.waiting
            counters.droppedBecauseQueueFull = counts.dropped
            counters.droppedAsLate = counts.replaced
            counters.droppedByThrottle = intake.throttled
            counters.droppedAtStop = intake.droppedAtStop
            return counters
        }
    }

    /// Capture side: offers a frame; never blocks.
    func offer(_ frame: sending Frame, time: Int64, input: Int) {
        intake.withLock(moving: frame) { intake, frame in
            guard !intake.closed else { return }
            let sequenceNumber = intake.received
            intake.received += 1
            if let minimum = minFrameDuration, let last = intake.lastAccepted, time - last < minimum.nanoseconds {
                intake.throttled += 1
                return
            }
            intake.lastAccepted = time
            // The queue is never failed, only finished under this lock: a push never throws.
            _ = try? queue.push(CapturedFrame(frame: frame, time: MediaTime(value: time, timescale: 1_000_000_000),
                                              sequenceNumber: sequenceNumber, input: input))
        }
    }

    /// Delivery thread: calls the handler until closed.
    func runDelivery() {
        while true {
            let next: CapturedFrame?
            do { next = try queue.pop() } catch { return }
            guard let next else { return }
            handler(next)
        }
    }

    /// No more frames come; frames still queued are dropped (counted `droppedAtStop`).
    func close() {
        intake.withLock { intake in
            guard !intake.closed else { return }
            intake.closed = true
            intake.droppedAtStop += queue.removeAll().count
            queue.finish()
        }
    }
}
