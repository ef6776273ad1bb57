import Foundation
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
public final class FrameOutput: @unchecked Sendable {
    public let alwaysDiscardsLateFrames: Bool
    public let backlog: Int
    public let minFrameDuration: MediaTime?
    private let handler: @Sendable (CapturedFrame) -> Void
    private let condition = NSCondition()
    private var items: [CapturedFrame] = []
    private var state = OutputCounters()
    private var closed = false
    private var lastAccepted: Int64?
    private var newestReceived = -1
    private var stale = 0

    public init(alwaysDiscardsLateFrames: Bool = true, backlog: Int = 4, minFrameDuration: MediaTime? = nil,
                handler: @escaping @Sendable (CapturedFrame) -> Void) {
        self.alwaysDiscardsLateFrames = alwaysDiscardsLateFrames
        self.backlog = alwaysDiscardsLateFrames ? 1 : max(1, backlog)
        self.minFrameDuration = minFrameDuration
        self.handler = handler
    }

    /// Received, delivered, dropped (by reason) and queued, read atomically.
    public var counters: OutputCounters { condition.withLock { state } }

    /// Frames delivered although a newer frame had been received when they were taken from
    /// the queue. Always 0 with `alwaysDiscardsLateFrames`.
    public var staleDeliveries: Int { condition.withLock { stale } }

    /// Capture side: offers a frame; never blocks.
    func offer(_ frame: Frame, time: Int64, input: Int) {
        condition.withLock {
            guard !closed else { return }
            state.received += 1
            newestReceived += 1
            if let minimum = minFrameDuration, let last = lastAccepted,
               time - last < minimum.nanoseconds {
                state.droppedByThrottle += 1
                return
            }
            let captured = CapturedFrame(frame: frame, time: MediaTime(value: time, timescale: 1_000_000_000),
                                         sequenceNumber: newestReceived, input: input)
            if items.count >= backlog {
                if alwaysDiscardsLateFrames {
                    items.removeFirst()
                    state.queued -= 1
                    state.droppedAsLate += 1
                } else {
                    state.droppedBecauseQueueFull += 1
                    return
                }
            }
            lastAccepted = time
            items.append(captured)
            state.queued += 1
            condition.signal()
        }
    }

    /// Delivery thread: calls the handler until closed, then drops what is left.
    func runDelivery() {
        while true {
            condition.lock()
            while items.isEmpty && !closed { condition.wait() }
            if closed {
                state.droppedAtStop += items.count
                state.queued -= items.count
                items.removeAll()
                condition.unlock()
                return
            }
            let next = items.removeFirst()
            state.queued -= 1
            state.delivered += 1
            if next.sequenceNumber < newestReceived && alwaysDiscardsLateFrames && minFrameDuration == nil { stale += 1 }
            condition.unlock()
            handler(next)
        }
    }

    /// No more frames come; frames still queued are dropped (counted `droppedAtStop`).
    func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }
}
