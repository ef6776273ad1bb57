import SlomoMedia

extension AudioRing {
    /// Fills `output` (interleaved float, `frames` frames) for the device: SDL's audio thread,
    /// which takes no lock and allocates nothing here.
    func render(into output: UnsafeMutablePointer<Float>, frames: Int) {
        timeline.update {
            var position = taken.load(ordering: .relaxed)
            var played = Double(bitPattern: playedTime.load(ordering: .relaxed))
            var isPrimed = primed.load(ordering: .relaxed)
            // A flush since the last callback: its frames are dropped, its time held.
            if flushes.version != timeline.flushesApplied,
               let (flush, version) = flushes.tryRead({ (flushPosition.load(ordering: .relaxed), flushTime.load(ordering: .relaxed)) }) {
                position = max(position, flush.0)
                played = Double(bitPattern: flush.1)
                isPrimed = false
                timeline.reset(to: ItemTimeRun(start: timeline.deviceFrames, itemTime: played, itemPerFrame: 0))
                timeline.flushesApplied = version
            }
            let isPaused = paused.load(ordering: .acquiring)
            if isPaused { played = Double(bitPattern: heldTime.load(ordering: .relaxed)) }
            let isEnded = ended.load(ordering: .acquiring)
            let available = end.load(ordering: .acquiring) - position
            if available >= primingFrames || isEnded { isPrimed = true }
            let count = claim(from: position, frames: isPaused || !isPrimed ? 0 : min(frames, max(available, 0)))
            var written = 0
            forEachRun(from: position, count: count) { run, at, length in
                copy(length, of: run, from: at, to: output + written * channelCount)
                let time = run.label.itemTime(at: at)
                let frame = timeline.deviceFrames + written
                if let last = timeline.lastAnchor, last.itemPerFrame == run.label.itemPerFrame,
                   abs(last.itemTime(at: frame) - time) < 1e-7 {
                    // the same run continues
                } else {
                    timeline.add(ItemTimeRun(start: frame, itemTime: time, itemPerFrame: run.label.itemPerFrame))
                }
                played = time + Double(length) * run.label.itemPerFrame
                written += length
            }
            position += count
            if let run = labels.run(at: position) {
                storageTaken.store(run.storageFrame(of: position), ordering: .releasing)
                labels.release(before: run.index)
            }
            if written < frames {
                (output + written * channelCount).update(repeating: 0, count: (frames - written) * channelCount)
                if !isEnded && !isPaused && isPrimed { underrunCount.add(1, ordering: .relaxed) }
                let frame = timeline.deviceFrames + written
                if timeline.lastAnchor.map({ $0.itemPerFrame != 0 }) ?? true {
                    timeline.add(ItemTimeRun(start: frame, itemTime: played, itemPerFrame: 0))
                }
            }
            timeline.noteCallback(frames: frames, at: MonotonicClock.nanoseconds())
            playedTime.store(played.bitPattern, ordering: .relaxed)
            primed.store(isPrimed, ordering: .relaxed)
        }
        if queuedFrames < refillBelow.load(ordering: .sequentiallyConsistent) { demand.ringIfWaiting() }
    }

    /// Claims up to `frames` frames from `position` on and returns how many it may copy: fewer
    /// when a splice is replacing some of them (the device then plays up to the splice), or a
    /// splice that finished meanwhile left fewer queued. See `splice` for the other half.
    private func claim(from position: Int, frames wanted: Int) -> Int {
        taken.store(position + wanted, ordering: .sequentiallyConsistent)
        var count = wanted
        let fence = spliceFence.load(ordering: .sequentiallyConsistent)
        if fence >= position && fence < position + count { count = fence - position }
        count = min(count, max(0, end.load(ordering: .acquiring) - position))
        if count != wanted { taken.store(position + count, ordering: .sequentiallyConsistent) }
        return count
    }
}
