import Synchronization

/// Which item time each frame of an `AudioRing` plays at, and where it is stored. The feed adds
/// a label for every block it queues: an `ItemTimeRun` from the block's first frame (a position:
/// frames queued since the ring was made, less those a splice replaced) and the storage frame
/// that first frame went to. A block spliced in at a position replaces what was queued from
/// there, so the label of a frame is the last one added at or before it; the spliced frames are
/// stored after everything else, so a splice never writes where the device may be reading.
///
/// Labels are kept in a fixed ring of `AtomicWords`: the feed adds them (`add`), the sound
/// device's callback reads them without a lock or an allocation and lets go of those no later
/// frame needs (`release(before:)`).
final class RunLabels: Sendable {
    /// The label a frame plays under, the storage frame of its first frame, which label it is,
    /// and the position where a later one takes over (`Int.max` while none does).
    struct Run {
        let label: ItemTimeRun
        let stored: Int
        let index: Int
        let end: Int

        /// The storage frame of the frame at `position`.
        func storageFrame(of position: Int) -> Int { stored + position - label.start }
    }

    /// Words a label takes: its run, and where it is stored.
    private static let labelWords = AtomicWords.runWords + 1

    private let words: AtomicWords
    /// How many labels the ring holds.
    let capacity: Int
    /// Labels added so far (written by the feed, with release).
    private let added = Atomic<Int>(0)
    /// The first label still needed (written by the device, with release).
    private let first = Atomic<Int>(0)

    init(capacity: Int) {
        self.capacity = capacity
        words = AtomicWords(count: Self.labelWords * capacity)
    }

    /// Adds `label`, whose first frame is at storage frame `stored` (the feed's thread).
    func add(_ label: ItemTimeRun, stored: Int) {
        let index = added.load(ordering: .relaxed)
        precondition(index - first.load(ordering: .acquiring) < capacity, "more than \(capacity) blocks queued for the sound device")
        let slot = Self.labelWords * (index % capacity)
        words.store(label, at: slot)
        words.store(stored, at: slot + AtomicWords.runWords)
        added.store(index + 1, ordering: .releasing)
    }

    /// The run `position` plays in; nil when no label is at or before it.
    func run(at position: Int) -> Run? {
        let end = added.load(ordering: .acquiring)
        let start = first.load(ordering: .acquiring)
        var index = end - 1
        while index >= start, label(index).start > position { index -= 1 }
        guard index >= start else { return nil }
        // Every label added after it starts later than `position`: the first of them ends the run.
        var runEnd = Int.max
        for later in index + 1..<end { runEnd = min(runEnd, label(later).start) }
        return Run(label: label(index), stored: words.int(Self.labelWords * (index % capacity) + AtomicWords.runWords),
                   index: index, end: runEnd)
    }

    /// Lets go of the labels before `index`, which no frame still to play needs (the device).
    func release(before index: Int) {
        first.store(index, ordering: .releasing)
    }

    private func label(_ index: Int) -> ItemTimeRun { words.run(at: Self.labelWords * (index % capacity)) }
}
