import Synchronization

/// What the sound device has been handed, as its callback publishes it for the clock: device
/// frames so far, where and when the last callback began, the last flush it applied, and the
/// anchors that tie device frames to item time (`ItemTimeRun`s from a device frame on).
///
/// One writer (the callback, in `update`), any number of readers (`snapshot()`), no lock and
/// nothing allocated on the writer's side: a `SeqLock`.
final class DeviceTimeline: Sendable {
    /// The timeline at one instant, for a reader.
    struct Snapshot {
        let deviceFrames: Int
        let callbackStart: Int
        let callbackNanos: Int64
        let flushesApplied: Int
        /// The most recent anchors, oldest first.
        let anchors: [ItemTimeRun]
    }

    /// Anchors kept: the audible frame is at most the device's latency and a buffer behind.
    static let anchorCapacity = 64

    private let publication = SeqLock()
    private let anchorWords = AtomicWords(count: AtomicWords.runWords * DeviceTimeline.anchorCapacity)
    /// The anchors kept are those from `anchorStart` to `anchorEnd` (counted since the start).
    private let anchorStart = Atomic<Int>(0)
    private let anchorEnd = Atomic<Int>(0)
    private let frames = Atomic<Int>(0)
    private let callbackStart = Atomic<Int>(0)
    private let callbackNanos = Atomic<Int64>(0)
    private let flushes = Atomic<Int>(0)

    // MARK: The writer (the device's callback)

    /// Runs `body`, which changes the timeline, as one publication.
    func update(_ body: () -> Void) { publication.write(body) }

    /// Frames handed to the device so far.
    var deviceFrames: Int { frames.load(ordering: .relaxed) }

    /// The version of the last flush the device applied (the writer's).
    var flushesApplied: Int {
        get { flushes.load(ordering: .relaxed) }
        set { flushes.store(newValue, ordering: .relaxed) }
    }

    /// The newest anchor.
    var lastAnchor: ItemTimeRun? {
        let end = anchorEnd.load(ordering: .relaxed)
        return end > anchorStart.load(ordering: .relaxed) ? anchor(end - 1) : nil
    }

    /// Adds an anchor, forgetting the oldest beyond `anchorCapacity`.
    func add(_ anchor: ItemTimeRun) {
        let end = anchorEnd.load(ordering: .relaxed)
        anchorWords.store(anchor, at: AtomicWords.runWords * (end % Self.anchorCapacity))
        anchorEnd.store(end + 1, ordering: .relaxed)
        if end + 1 - anchorStart.load(ordering: .relaxed) > Self.anchorCapacity {
            anchorStart.store(end + 1 - Self.anchorCapacity, ordering: .relaxed)
        }
    }

    /// Forgets every anchor but `anchor`.
    func reset(to anchor: ItemTimeRun) {
        anchorStart.store(anchorEnd.load(ordering: .relaxed), ordering: .relaxed)
        add(anchor)
    }

    /// Notes a callback that began now (`nanos`) and handed the device `count` frames.
    func noteCallback(frames count: Int, at nanos: Int64) {
        let start = frames.load(ordering: .relaxed)
        callbackStart.store(start, ordering: .relaxed)
        frames.store(start + count, ordering: .relaxed)
        callbackNanos.store(nanos, ordering: .relaxed)
    }

    // MARK: Readers

    /// The timeline as the writer last published it.
    func snapshot() -> Snapshot {
        publication.read {
            let start = anchorStart.load(ordering: .relaxed), end = anchorEnd.load(ordering: .relaxed)
            return Snapshot(deviceFrames: frames.load(ordering: .relaxed), callbackStart: callbackStart.load(ordering: .relaxed),
                            callbackNanos: callbackNanos.load(ordering: .relaxed), flushesApplied: flushes.load(ordering: .relaxed),
                            anchors: (start..<max(start, min(end, start + Self.anchorCapacity))).map(anchor))
        }
    }

    private func anchor(_ index: Int) -> ItemTimeRun {
        anchorWords.run(at: AtomicWords.runWords * (index % Self.anchorCapacity))
    }
}
