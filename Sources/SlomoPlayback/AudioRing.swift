import Foundation
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
        let itemTime: Double
        let itemPerFrame: Double
    }

    private struct State {
        var blocks: [Block] = []
        var queuedFrames = 0
        var deviceFrames = 0
        var anchors: [Anchor] = []
        /// Device frame at which the last callback's buffer starts, and when it was called.
        var lastCallbackStart = 0
        var lastCallbackNanos: UInt64 = 0
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
            $0.blocks.append(Block(samples: samples, offset: 0, itemTime: itemTime, itemPerFrame: itemPerFrame))
            $0.queuedFrames += samples.count / channelCount
            $0.ended = false
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

    private static func audibleFrame(_ state: State, now: UInt64, sampleRate: Int, latency: Int) -> Int {
        let buffer = state.deviceFrames - state.lastCallbackStart
        let elapsed = Int(Double(now &- state.lastCallbackNanos) * 1e-9 * Double(sampleRate))
        return state.lastCallbackStart - latency + min(max(elapsed, 0), buffer)
    }

    private static func itemTime(_ state: State, now: UInt64, sampleRate: Int, latency: Int) -> Double {
        if state.paused { return state.heldTime }
        let frame = audibleFrame(state, now: now, sampleRate: sampleRate, latency: latency)
        guard let anchor = state.anchors.last(where: { $0.deviceFrame <= frame }) ?? state.anchors.first else {
            return state.heldTime
        }
        if frame < anchor.deviceFrame { return anchor.itemTime }
        return anchor.itemTime(at: frame)
    }
}
