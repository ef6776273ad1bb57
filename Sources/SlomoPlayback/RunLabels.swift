import Synchronization

/// Which item time each frame of an `AudioRing` plays at. The feed adds a label for every block
/// it queues (an `ItemTimeRun` from the block's first frame, a position: frames added since the
/// ring was made). A block spliced in at a position replaces what was queued from there, so
/// the label of a frame is the last one added at or before it.
///
/// Labels are kept in a fixed ring of `AtomicWords`: the feed adds them (`add`), the sound
/// device's callback reads them without a lock or an allocation and lets go of those no later
/// frame needs (`release(before:)`).
final class RunLabels: Sendable {
    /// The label a frame plays under, which label it is, and the position where a later one
    /// takes over (`Int.max` while none does).
    struct Run {
        let label: ItemTimeRun
        let index: Int
        let end: Int
    }

    private let words: AtomicWords
    /// How many labels the ring holds.
    let capacity: Int
    /// Labels added so far (written by the feed, with release).
    private let added = Atomic<Int>(0)
    /// The first label still needed (written by the device, with release).
    private let first = Atomic<Int>(0)

    init(capacity: Int) {
        self.capacity = capacity
        words = AtomicWords(count: AtomicWords.runWords * capacity)
    }

    /// Adds `label` (the feed's thread).
    func add(_ label: ItemTimeRun) {
        let index = added.load(ordering: .relaxed)
        precondition(index - first.load(ordering: .acquiring) < capacity, "more than \(capacity) blocks queued for the sound device")
        words.store(label, at: AtomicWords.runWords * (index % capacity))
        added.store(index + 1, ordering: .releasing)
    }

    /// The run `position` plays in; nil when no label is at or before it.
    func run(at position: Int) -> Run? {
        let end = added.load(ordering: .acquiring)
        let start = first.load(ordering: .acquiring)
        var index = end - 1
        while index >= start, self[index].start > position { index -= 1 }
        guard index >= start else { return nil }
        // Every label added after it starts later than `position`: the first of them ends the run.
        var runEnd = Int.max
        for later in index + 1..<end { runEnd = min(runEnd, self[later].start) }
        return Run(label: self[index], index: index, end: runEnd)
    }

    /// Lets go of the labels before `index`, which no frame still to play needs (the device).
    func release(before index: Int) {
        first.store(index, ordering: .releasing)
    }

    private subscript(index: Int) -> ItemTimeRun { words.run(at: AtomicWords.runWords * (index % capacity)) }
}
