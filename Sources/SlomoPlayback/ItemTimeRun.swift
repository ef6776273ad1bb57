/// Item time from frame `start` on, moving evenly by `itemPerFrame` a frame: a label of the
/// `AudioRing`'s queued frames (`start` a ring position) and an anchor of what the device
/// played (`start` a device frame).
struct ItemTimeRun {
    let start: Int
    let itemTime: Double
    let itemPerFrame: Double

    func itemTime(at frame: Int) -> Double { itemTime + Double(frame - start) * itemPerFrame }
}

extension AtomicWords {
    /// Words a run takes.
    static let runWords = 3

    /// Stores `run` in the words from `slot` on.
    func store(_ run: ItemTimeRun, at slot: Int) {
        store(run.start, at: slot)
        store(run.itemTime, at: slot + 1)
        store(run.itemPerFrame, at: slot + 2)
    }

    /// The run stored from `slot` on.
    func run(at slot: Int) -> ItemTimeRun {
        ItemTimeRun(start: int(slot), itemTime: double(slot + 1), itemPerFrame: double(slot + 2))
    }
}
