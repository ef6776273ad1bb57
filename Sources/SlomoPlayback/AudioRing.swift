import Foundation
import Synchronization

/// The rendered audio waiting for the sound device, and the clock it gives: which item time
/// the device is playing now.
///
/// The feed adds blocks of interleaved samples, each labelled with the item time of its first
/// frame and how far item time moves per frame (`rate / sampleRate`: `RunLabels`). The
/// device's callback takes frames in order and notes, in device frames (every frame handed to
/// the device, silence included), where each labelled run starts: the anchors
/// (`DeviceTimeline`). The audible frame is the last callback's first frame, less the device's
/// latency, plus the time since that callback; its anchor turns it into item time. When the
/// ring runs dry the device plays silence and item time holds (an underrun while playing is
/// counted); while paused it plays silence too, so every frame the device plays passes here.
///
/// One thread feeds it (the feed), one takes from it (SDL's audio thread), and neither waits
/// for the other: the frames sit in storage allocated once (`AtomicWords`), and the two sides
/// meet only in atomic positions, so the callback takes no lock and allocates nothing. Frames
/// are counted by position: frames queued since the ring was made, less those a splice
/// replaced. The storage is written in order, spliced frames after the rest, and each label
/// says where its frames are stored (`RunLabels`), so nothing is written where the device
/// may be reading.
final class AudioRing: Sendable {
    let channelCount: Int
    let sampleRate: Int
    /// Device frames between a callback and the moment its first frame is heard.
    let latencyFrames: Int
    /// Frames queued before playing starts (after opening, a seek or a flush), so that the
    /// first buffers do not run dry while the renderer warms up.
    let primingFrames: Int
    /// Frames the storage holds, queued or not yet passed by the device: two seconds.
    let capacity: Int
    /// Frames stored so far (storage frame `f` is at `f % capacity`).
    let stored = Atomic<Int>(0)

    let samples: AtomicWords
    let labels = RunLabels(capacity: 1024)
    let timeline = DeviceTimeline()
    /// Where the feed sleeps until the device wants more frames or a control changes.
    let demand = Doorbell()

    // The feed's side.
    /// The end of what is queued, as a position (released once its frames and label are stored).
    let end = Atomic<Int>(0)
    /// A splice in progress replaces the frames from this position on (`Int.max`: none).
    let spliceFence = Atomic<Int>(.max)
    /// The last flush: its position (frames before it are dropped) and item time (held until
    /// new frames play), published together; its version tells the device a new one came.
    let flushes = SeqLock()
    let flushPosition = Atomic<Int>(0)
    let flushTime = Atomic<UInt64>(0)
    /// The feed has delivered everything: silence now is the end, not an underrun.
    let ended = Atomic<Bool>(false)
    /// The device wakes the feed when fewer frames than this are queued.
    let refillBelow = Atomic<Int>(0)

    // The controls' side.
    let paused = Atomic<Bool>(true)
    /// Item time held while nothing plays: set at a pause and a flush (bits of a `Double`).
    let heldTime: Atomic<UInt64>

    // The device's side.
    /// The next frame the device takes: what it has claimed for its callbacks so far.
    let taken = Atomic<Int>(0)
    /// The storage frame of the next frame the device takes: storage before it is free.
    let storageTaken = Atomic<Int>(0)
    /// Enough was queued since the last flush to start playing (`primingFrames`, or the end):
    /// until then the device plays silence and item time holds, which is no underrun.
    let primed = Atomic<Bool>(false)
    /// Item time at the end of the last frame played (bits of a `Double`).
    let playedTime: Atomic<UInt64>
    let underrunCount = Atomic<Int>(0)

    init(channelCount: Int, sampleRate: Int, latencyFrames: Int, primingFrames: Int, startTime: Double) {
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        self.latencyFrames = latencyFrames
        self.primingFrames = primingFrames
        capacity = max(2 * sampleRate, 8192)
        samples = AtomicWords(count: capacity * channelCount)
        heldTime = Atomic(startTime.bitPattern)
        playedTime = Atomic(startTime.bitPattern)
    }

    /// The next frame the device takes: the frames a flush dropped are taken already.
    private var next: Int {
        max(taken.load(ordering: .sequentiallyConsistent), flushPosition.load(ordering: .relaxed))
    }

    /// Frames waiting for the device.
    var queuedFrames: Int { end.load(ordering: .relaxed) - next }

    /// Where the queue stands, as positions: the next frame the device takes, and the end of
    /// what is queued.
    func queuePositions() -> (next: Int, end: Int) { (next, end.load(ordering: .relaxed)) }

    /// Appends interleaved `samples` whose first frame plays at `itemTime` (the feed; there must
    /// be room: `wantsFrames`).
    func append(_ samples: [Float], itemTime: Double, itemPerFrame: Double) {
        guard !samples.isEmpty else { return }
        let position = end.load(ordering: .relaxed)
        precondition(hasRoom(for: samples.count / channelCount), "the sound ring is full")
        queue(samples, at: position, itemTime: itemTime, itemPerFrame: itemPerFrame)
    }

    /// The item time the queued frame at `position` plays at; nil when it is not queued.
    func itemTime(ofQueued position: Int) -> Double? {
        guard position >= next, position < end.load(ordering: .relaxed), let run = labels.run(at: position) else { return nil }
        return run.label.itemTime(at: position)
    }

    /// Replaces the queued frames from `position` on by `samples` (interleaved, whose first frame
    /// plays at `itemTime`), fading from the queued frames into them over their first `fade`
    /// frames. Atomic with the device: false, and nothing changed, when the device has taken
    /// frame `position` already, fewer than `fade` frames are queued from it, or the new frames
    /// do not fit.
    func splice(_ samples: [Float], at position: Int, itemTime: Double, itemPerFrame: Double, fade: Int) -> Bool {
        guard position >= next, position + fade <= end.load(ordering: .relaxed), samples.count >= fade * channelCount,
              hasRoom(for: samples.count / channelCount) else { return false }
        var mixed = samples
        let faded = [Float](unsafeUninitializedCapacity: fade * channelCount) { buffer, count in
            forEachRun(from: position, count: fade) { run, at, length in
                copy(length, of: run, from: at, to: buffer.baseAddress! + (at - position) * channelCount)
            }
            count = fade * channelCount
        }
        Self.crossfade(from: faded, into: &mixed, frames: fade, channels: channelCount)
        // The new frames are stored first, after everything else, where no label points yet.
        // Then the device claims its frames before it copies them and looks for a splice after;
        // the feed says where it splices before it looks at what the device claimed. One of the
        // two sees the other: a splice never replaces a frame the device is copying.
        let storage = store(mixed)
        spliceFence.store(position, ordering: .sequentiallyConsistent)
        defer { spliceFence.store(.max, ordering: .sequentiallyConsistent) }
        guard taken.load(ordering: .sequentiallyConsistent) <= position else { return false }
        publish(mixed.count / channelCount, at: position, stored: storage, itemTime: itemTime, itemPerFrame: itemPerFrame)
        return true
    }

    /// Forgets everything queued; item time holds at `time` until new frames play.
    func flush(holding time: Double) {
        flushes.write {
            heldTime.store(time.bitPattern, ordering: .relaxed)
            flushPosition.store(end.load(ordering: .relaxed), ordering: .relaxed)
            flushTime.store(time.bitPattern, ordering: .relaxed)
        }
    }

    /// The feed has nothing more to give.
    func markEnded() { ended.store(true, ordering: .releasing) }

    /// True when fewer than `frames` frames are queued and `block` more fit.
    func wantsFrames(below frames: Int, block: Int) -> Bool { queuedFrames < frames && hasRoom(for: block) }

    /// Sleeps until the device has taken enough that fewer than `frames` frames are queued
    /// (with room for `block` more), or `wakeFeed()` is called; `frames` 0 waits for the
    /// latter only (the feed's thread).
    func waitForDemand(below frames: Int, block: Int) {
        refillBelow.store(frames, ordering: .sequentiallyConsistent)
        demand.sleep(unless: { frames > 0 && wantsFrames(below: frames, block: block) })
    }

    /// Wakes the feed in `waitForDemand` (its controls changed).
    func wakeFeed() { demand.ring() }

    /// Fades `samples` (interleaved) in over their first `frames` frames from `old`, with a
    /// raised cosine (equal gain: the two are the same sound at different rates).
    private static func crossfade(from old: [Float], into samples: inout [Float], frames: Int, channels: Int) {
        let frames = min(frames, old.count / channels, samples.count / channels)
        for frame in 0..<frames {
            let gain = Float(0.5 - 0.5 * cos(Double.pi * (Double(frame) + 0.5) / Double(frames)))
            for channel in 0..<channels {
                let i = frame * channels + channel
                samples[i] = old[i] * (1 - gain) + samples[i] * gain
            }
        }
    }

    /// True when `frames` more frames fit in the storage beside those the device has not passed.
    private func hasRoom(for frames: Int) -> Bool {
        stored.load(ordering: .relaxed) + frames - storageTaken.load(ordering: .acquiring) <= capacity
    }

    /// Stores interleaved `samples` after everything stored; returns the storage frame of the first.
    private func store(_ samples: [Float]) -> Int {
        let storage = stored.load(ordering: .relaxed)
        samples.withUnsafeBufferPointer { self.samples.store($0, at: (storage % capacity) * channelCount) }
        return storage
    }

    /// Stores and queues interleaved `samples` from `position` on.
    private func queue(_ samples: [Float], at position: Int, itemTime: Double, itemPerFrame: Double) {
        publish(samples.count / channelCount, at: position, stored: store(samples), itemTime: itemTime, itemPerFrame: itemPerFrame)
    }

    /// Queues `frames` frames stored from storage frame `storage` on, from `position` on: their
    /// label first, then the end the device reads up to.
    private func publish(_ frames: Int, at position: Int, stored storage: Int, itemTime: Double, itemPerFrame: Double) {
        labels.add(ItemTimeRun(start: position, itemTime: itemTime, itemPerFrame: itemPerFrame), stored: storage)
        stored.store(storage + frames, ordering: .relaxed)
        ended.store(false, ordering: .releasing)
        end.store(position + frames, ordering: .releasing)
    }

    /// Calls `body` with each run of the `count` queued frames from `position` on: the run,
    /// the position where this part of it starts, and how many frames it has.
    func forEachRun(from position: Int, count: Int, _ body: (RunLabels.Run, Int, Int) -> Void) {
        var done = 0
        while done < count, let run = labels.run(at: position + done) {
            let length = min(count - done, run.end - (position + done))
            body(run, position + done, length)
            done += length
        }
    }

    /// Copies `count` frames of `run` from `position` on into `output`, interleaved.
    func copy(_ count: Int, of run: RunLabels.Run, from position: Int, to output: UnsafeMutablePointer<Float>) {
        samples.load(UnsafeMutableBufferPointer(start: output, count: count * channelCount),
                     from: (run.storageFrame(of: position) % capacity) * channelCount)
    }
}
