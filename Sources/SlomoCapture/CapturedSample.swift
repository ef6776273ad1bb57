import SlomoMedia

/// A frame or packet on its way from a source to an output, stamped on the session clock.
/// It is moved from the capture thread to exactly one consumer, never shared: outputs take it
/// as `sending`, and their queue hands it to their writer as `sending`.
struct CapturedSample {
    enum Payload {
        case frame(Frame)
        case packet(Packet)
    }

    let payload: Payload
    /// The index of the input in the session.
    let input: Int
    /// Session time in nanoseconds; in a movie output's queue, recording time.
    let time: Int64
    /// False for a compressed packet that decoding cannot start from.
    var isKeyframe: Bool {
        switch payload {
        case .frame: true
        case .packet(let packet): packet.isKeyframe
        }
    }
    /// Bytes the payload takes.
    var size: Int {
        switch payload {
        case .frame(let frame): frame.dataSize
        case .packet(let packet): packet.size
        }
    }
}

/// Counts that an output keeps under one lock, so that
/// `received == written (or delivered) + dropped + queued` holds whenever it is read.
public struct OutputCounters: Hashable, Sendable, Codable {
    /// Video frames (or packets) offered to the output.
    public var received = 0
    /// Frames written to the file or handed to the callback.
    public var delivered = 0
    /// Frames waiting in the output's queue.
    public var queued = 0
    /// Frames dropped, by reason.
    public var droppedBecauseQueueFull = 0
    public var droppedAsLate = 0
    public var droppedByThrottle = 0
    public var droppedWaitingForKeyframe = 0
    public var droppedAtStop = 0
    /// Samples that arrived while the recording was paused: left out on purpose, so neither
    /// received nor dropped.
    public var skippedWhilePaused = 0

    /// Every drop, whatever the reason.
    public var dropped: Int {
        droppedBecauseQueueFull + droppedAsLate + droppedByThrottle + droppedWaitingForKeyframe + droppedAtStop
    }

    /// `received == delivered + dropped + queued`.
    public var isConsistent: Bool { received == delivered + dropped + queued }
}
