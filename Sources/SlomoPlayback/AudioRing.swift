import Foundation
import SlomoMedia
import Synchronization

/// The rendered audio waiting for the sound device, and the clock it gives: which item time
/// the device is playing now.
///
/// The feed appends blocks of interleaved samples, each labelled with the item time of its
/// first frame and how far item time moves per frame (`rate / sampleRate`). The device's
/// callback takes frames in order and notes, in device frames (every frame handed to the
/// device, silence included), where each labelled run starts: the anchors. The audible frame
/// is the last callback's first frame, less the device's latency, plus the time since that
/// callback; its anchor turns it into item time. When the ring runs dry the device plays
/// silence and item time holds (an underrun while playing is counted); while paused it plays
/// silence too, so every frame the device plays passes through here.
final class AudioRing: Sendable {
    /// A run of frames whose item time moves evenly.
    struct Anchor {
        let deviceFrame: Int
        let itemTime: Double
        let itemPerFrame: Double
        func itemTime(at frame: Int) -> Double { itemTime + Double(frame - deviceFrame) * itemPerFrame }
    }

    private struct Block {
        var samples: [Float]
        var offset: Int
        /// The position (see `queuePositions`) of the block's first frame.
        let position: Int
        let itemTime: Double
        let itemPerFrame: Double
    }

    private struct State {
        var blocks: [Block] = []
        var queuedFrames = 0
        /// Frames appended since the ring was made (less those a splice replaced): the queue's
        /// end, as a position; the next frame the device takes is at `appendedFrames − queuedFrames`.
        var appendedFrames = 0
        var deviceFrames = 0
        var anchors: [Anchor] = []
        /// Device frame at which the last callback's buffer starts, and when it was called.
        var lastCallbackStart = 0
        var lastCallbackNanos: Int64 = 0
        var underruns = 0
        /// Enough was queued since the last flush to start playing (`primingFrames`, or the end):
        /// until then the device plays silence and item time holds, which is no underrun.
        var primed = false
        /// The feed has delivered everything: silence now is the end, not an underrun.
        var ended = false
        var paused = true
        /// Item time held while nothing plays (before the first frame, after a flush).
        var heldTime: Double
    }

    let channelCount: Int
    let sampleRate: Int
    /// Device frames between a callback and the moment its first frame is heard.
    let latencyFrames: Int
    /// Frames queued before playing starts (after opening, a seek or a flush), so that the
    /// first buffers do not run dry while the renderer warms up.
    let primingFrames: Int
    private let state: Mutex<State>

    init(channelCount: Int, sampleRate: Int, latencyFrames: Int, primingFrames: Int, startTime: Double) {
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        self.latencyFrames = latencyFrames
        self.primingFrames = primingFrames
        state = Mutex(State(heldTime: startTime))
    }

    /// Frames waiting for the device.
    var queuedFrames: Int { state.withLock { $0.queuedFrames } }
    /// Times the device found the ring empty while playing.
    var underruns: Int { state.withLock { $0.underruns } }
    /// Frames handed to the device so far (silence included).
    var deviceFrames: Int { state.withLock { $0.deviceFrames } }

    /// Appends interleaved `samples` whose first frame plays at `itemTime`.
    func append(_ samples: [Float], itemTime: Double, itemPerFrame: Double) {
        guard !samples.isEmpty else { return }
        state.withLock {
            $0.blocks.append(Block(samples: samples, offset: 0, position: $0.appendedFrames, itemTime: itemTime,
                                   itemPerFrame: itemPerFrame))
            $0.queuedFrames += samples.count / channelCount
            $0.appendedFrames += samples.count / channelCount
            $0.ended = false
        }
    }

    /// Where the queue stands, as positions (frames appended since the ring was made): the next
    /// frame the device takes, and the end of what is queued.
    func queuePositions() -> (next: Int, end: Int) {
        state.withLock { ($0.appendedFrames - $0.queuedFrames, $0.appendedFrames) }
    }

    /// The item time the queued frame at `position` plays at; nil when it is not queued.
    func itemTime(ofQueued position: Int) -> Double? {
        state.withLock { state in
            guard let block = state.blocks.last(where: { $0.position + $0.offset <= position }),
                  position < block.position + block.samples.count / channelCount else { return nil }
            return block.itemTime + Double(position - block.position) * block.itemPerFrame
        }
    }

    /// Replaces the queued frames from `position` on by `samples` (interleaved, whose first frame
    /// plays at `itemTime`), fading from the queued frames into them over their first `fade`
    /// frames. Atomic with the device: false, and nothing changed, when the device has taken
    /// frame `position` already or fewer than `fade` frames are queued from it.
    func splice(_ samples: [Float], at position: Int, itemTime: Double, itemPerFrame: Double, fade: Int) -> Bool {
        state.withLock { state in
            let next = state.appendedFrames - state.queuedFrames
            guard position >= next, position + fade <= state.appendedFrames, samples.count >= fade * channelCount else { return false }
            var kept: [Block] = [], replaced: [Float] = []
            for var block in state.blocks {
                let frames = block.samples.count / channelCount
                let cut = max(position - block.position, 0)
                if cut < frames, replaced.count < fade * channelCount {
                    replaced += block.samples[(cut * channelCount)..<(min(frames, cut + fade) * channelCount)]
                }
                if cut > block.offset {
                    block.samples.removeSubrange((min(cut, frames) * channelCount)...)
                    kept.append(block)
                }
            }
            var mixed = samples
            Self.crossfade(from: replaced, into: &mixed, frames: fade, channels: channelCount)
            kept.append(Block(samples: mixed, offset: 0, position: position, itemTime: itemTime, itemPerFrame: itemPerFrame))
            state.blocks = kept
            let added = samples.count / channelCount
            state.queuedFrames = position - next + added
            state.appendedFrames = position + added
            state.ended = false
            return true
        }
    }

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

    /// Forgets everything queued; item time holds at `time` until new frames play.
    func flush(holding time: Double) {
        state.withLock {
            $0.blocks.removeAll()
            $0.queuedFrames = 0
            $0.heldTime = time
            $0.primed = false
            $0.anchors = [Anchor(deviceFrame: $0.deviceFrames, itemTime: time, itemPerFrame: 0)]
        }
    }

    /// The feed has nothing more to give.
    func markEnded() { state.withLock { $0.ended = true } }

    /// Pauses (the device plays silence, item time holds where it is heard) or resumes.
    func setPaused(_ paused: Bool) {
        state.withLock {
            if paused { $0.heldTime = Self.itemTime($0, now: MonotonicClock.nanoseconds(), sampleRate: sampleRate, latency: latencyFrames) }
            $0.paused = paused
        }
    }

    /// The item time being heard now, and the device frame being heard.
    func now() -> (itemTime: Double, deviceFrame: Int) {
        state.withLock { state in
            let nanos = MonotonicClock.nanoseconds()
            return (Self.itemTime(state, now: nanos, sampleRate: sampleRate, latency: latencyFrames),
                    Self.audibleFrame(state, now: nanos, sampleRate: sampleRate, latency: latencyFrames))
        }
    }

    /// Fills `output` (interleaved float, `frames` frames) for the device.
    func render(into output: UnsafeMutablePointer<Float>, frames: Int) {
        state.withLock { state in
            if state.queuedFrames >= primingFrames || state.ended { state.primed = true }
            var written = 0
            while written < frames, !state.paused, state.primed, !state.blocks.isEmpty {
                let block = state.blocks[0]
                let available = block.samples.count / channelCount - block.offset
                let count = min(available, frames - written)
                block.samples.withUnsafeBufferPointer { source in
                    (output + written * channelCount).update(from: source.baseAddress! + block.offset * channelCount,
                                                             count: count * channelCount)
                }
                let time = block.itemTime + Double(block.offset) * block.itemPerFrame
                let frame = state.deviceFrames + written
                if let last = state.anchors.last, last.itemPerFrame == block.itemPerFrame,
                   abs(last.itemTime(at: frame) - time) < 1e-7 {
                    // the same run continues
                } else {
                    state.anchors.append(Anchor(deviceFrame: frame, itemTime: time, itemPerFrame: block.itemPerFrame))
                }
                state.heldTime = time + Double(count) * block.itemPerFrame
                written += count
                state.queuedFrames -= count
                if count == available { state.blocks.removeFirst() } else { state.blocks[0].offset += count }
            }
            if written < frames {
                (output + written * channelCount).update(repeating: 0, count: (frames - written) * channelCount)
                if !state.ended && !state.paused && state.primed { state.underruns += 1 }
                let frame = state.deviceFrames + written
                if state.anchors.last?.itemPerFrame != 0 || state.anchors.isEmpty {
                    state.anchors.append(Anchor(deviceFrame: frame, itemTime: state.heldTime, itemPerFrame: 0))
                }
            }
            state.lastCallbackStart = state.deviceFrames
            state.deviceFrames += frames
            state.lastCallbackNanos = MonotonicClock.nanoseconds()
            if state.anchors.count > 64 { state.anchors.removeFirst(state.anchors.count - 64) }
        }
    }

    private static func audibleFrame(_ state: State, now: Int64, sampleRate: Int, latency: Int) -> Int {
        let buffer = state.deviceFrames - state.lastCallbackStart
        let elapsed = Int(Double(now - state.lastCallbackNanos) * 1e-9 * Double(sampleRate))
        return state.lastCallbackStart - latency + min(max(elapsed, 0), buffer)
    }

    private static func itemTime(_ state: State, now: Int64, sampleRate: Int, latency: Int) -> Double {
        if state.paused { return state.heldTime }
        let frame = audibleFrame(state, now: now, sampleRate: sampleRate, latency: latency)
        guard let anchor = state.anchors.last(where: { $0.deviceFrame <= frame }) ?? state.anchors.first else {
            return state.heldTime
        }
        if frame < anchor.deviceFrame { return anchor.itemTime }
        return anchor.itemTime(at: frame)
    }
}
