import SlomoAudio
import SlomoConcurrency
import SlomoCore
import SlomoComposition
import SlomoMedia
import Synchronization

/// The thread that renders the item's audio into the `AudioRing`, a little ahead of the
/// device: a `PlaybackAudio` stream (the export's renderer over the item's maps, trimmed to
/// where playing starts and scaled by the player's rate). A seek starts a new stream at the
/// target and drops what was queued; a rate, algorithm or pitch change starts one at the device's next
/// frame and splices it into the queue there, crossfaded, so it is heard as soon as its first
/// block is rendered, without a click. Between blocks the thread sleeps until the device has
/// taken enough that the ring wants more, or a control changes (`AudioRing.waitForDemand`).
final class AudioFeed: Sendable {
    /// What to render: the player's rate, algorithm and pitch (semitones).
    struct Settings: Sendable, Equatable {
        var rate: Rate
        var algorithm: TimePitchAlgorithm
        var spectralEngine: SpectralEngine
        var pitch: Double = 0
    }

    private enum Request {
        case seek(MediaTime, Settings)
        case change(Settings)
    }

    private struct Control {
        var pending: Request?
        var stopped = false
        var failure: Error?
    }

    /// How far ahead of the device the feed renders: 80 ms, so that a busy machine does not
    /// starve the device (a change of rate does not wait for it: see `Stream.changed`).
    static let lead = 0.080
    /// Crossfade at a change of rate or algorithm.
    static let crossfade = 0.010
    /// Frames rendered at a time.
    static let block = 512

    let ring: AudioRing
    private let item: PlayerItem
    private let control = Mutex(Control())
    private let worker = PipelineWorker("slomo audio feed")
    /// Where damage the decoders meet is said.
    private let damage: DamageNotices

    /// Starts rendering at `start` with `settings`.
    init(item: PlayerItem, ring: AudioRing, start: MediaTime, settings: Settings, damage: DamageNotices) {
        self.item = item
        self.ring = ring
        self.damage = damage
        control.withLock { $0.pending = .seek(start, settings) }
        worker.start { [self] in run() }
    }

    /// The error that stopped rendering, if any.
    var failure: Error? { control.withLock { $0.failure } }

    /// Plays from `time` on: drops what is queued.
    func seek(to time: MediaTime, settings: Settings) {
        control.withLock { $0.pending = .seek(time, settings) }
        ring.wakeFeed()
    }

    /// Changes rate, algorithm or pitch as soon as the new stream's first block is rendered.
    func change(_ settings: Settings) {
        control.withLock { control in
            if case .seek(let time, _) = control.pending { control.pending = .seek(time, settings) } else {
                control.pending = .change(settings)
            }
        }
        ring.wakeFeed()
    }

    /// Stops the thread and waits for it.
    func stop() {
        control.withLock { $0.stopped = true }
        ring.wakeFeed()
        worker.join()
    }

    private func run() {
        let lead = Int(Self.lead * Double(ring.sampleRate))
        var stream: Stream?
        while true {
            let (request, stopped) = control.withLock { control in
                defer { control.pending = nil }
                return (control.pending, control.stopped)
            }
            if stopped { return }
            do {
                switch request {
                case .seek(let time, let settings)?:
                    ring.flush(holding: time.doubleSeconds)
                    stream = try Stream(item: item, start: time, settings: settings, ring: ring)
                case .change(let settings)?:
                    stream = try stream?.changed(to: settings, item: item, ring: ring)
                case nil:
                    break
                }
                guard let current = stream, ring.wantsFrames(below: lead, block: Self.block) else {
                    // Nothing to render until the device takes frames (none while paused, or
                    // once the stream has ended) or a control changes.
                    ring.waitForDemand(below: stream == nil ? 0 : lead, block: Self.block)
                    continue
                }
                let more = try current.feed(ring, frames: Self.block)
                for (source, found) in current.audio.damage { damage.report(found, in: source) }
                if !more {
                    ring.markEnded()
                    stream = nil
                }
            } catch {
                control.withLock { $0.failure = error }
                ring.markEnded()
                return
            }
        }
    }

    /// One rendered stream and how far it has been delivered.
    private final class Stream {
        let audio: PlaybackAudio
        let settings: Settings
        private var delivered = 0

        init(item: PlayerItem, start: MediaTime, settings: Settings, ring: AudioRing) throws {
            audio = try PlaybackAudio(item.map, files: item.files, from: start, rate: settings.rate, algorithm: settings.algorithm,
                                      spectralEngine: settings.spectralEngine, pitch: settings.pitch)
            guard audio.sampleRate == ring.sampleRate else {
                throw PlaybackError(.failed, "a clip's audio is at \(audio.sampleRate) Hz, the first at \(ring.sampleRate) Hz; "
                                    + "playing clips of different sample rates is not supported")
            }
            self.settings = settings
        }

        private var itemPerFrame: Double { settings.rate.value.doubleValue / Double(audio.sampleRate) }
        private var nextItemTime: Double { audio.startTime.doubleSeconds + Double(delivered) * itemPerFrame }

        /// The next frames, interleaved in the ring's channel count; nil at the end.
        func next(_ frames: Int, channels: Int) throws -> [Float]? {
            guard let block = try audio.nextBlock(maxFrames: frames), block.frameCount > 0 else { return nil }
            delivered += block.frameCount
            if block.channelCount == channels { return block.interleaved() }
            let mapped = (0..<channels).map { block.channels[min($0, block.channelCount - 1)] }
            return AudioBuffer(planar: mapped).interleaved()
        }

        /// Renders `frames` more into the ring; false at the end of the stream.
        func feed(_ ring: AudioRing, frames: Int) throws -> Bool {
            let time = nextItemTime
            guard let samples = try next(frames, channels: ring.channelCount) else { return false }
            ring.append(samples, itemTime: time, itemPerFrame: itemPerFrame)
            return true
        }

        /// A stream with `settings` that takes over from this one as soon as it can. It starts at
        /// the item time of the next frame the device takes and renders its first block (its
        /// pre-roll, the costly part) while the queue plays on; then it skips what the device took
        /// meanwhile and is spliced in at the device's next frame, faded in from the queued
        /// frames. Should the queue run short first, this stream renders on to keep it playing.
        func changed(to settings: Settings, item: PlayerItem, ring: AudioRing) throws -> Stream {
            let fade = Int(AudioFeed.crossfade * Double(ring.sampleRate))
            let first = ring.queuePositions().next
            let start = ring.itemTime(ofQueued: first) ?? nextItemTime
            let successor = try Stream(item: item, start: MediaTime(value: Int64((start * 1e9).rounded()), timescale: 1_000_000_000),
                                       settings: settings, ring: ring)
            // The successor's frames not yet in the ring: its frames `delivered − count` on.
            var pending: [Float] = []
            while true {
                let (position, end) = ring.queuePositions()
                if position + fade > end {
                    guard try feed(ring, frames: position + fade - end) else { return self }
                    continue
                }
                guard let time = ring.itemTime(ofQueued: position) else { continue }
                // The successor's frame that plays at `time`, and enough after it to prime the device.
                let skip = max(0, Int(((time - successor.audio.startTime.doubleSeconds) / successor.itemPerFrame).rounded()))
                let wanted = skip + max(fade, ring.primingFrames)
                while successor.delivered < wanted, let block = try successor.next(wanted - successor.delivered, channels: ring.channelCount) {
                    pending += block
                }
                let firstPending = successor.delivered - pending.count / ring.channelCount
                if firstPending < skip { pending.removeFirst(min(skip - firstPending, pending.count / ring.channelCount) * ring.channelCount) }
                let label = successor.nextItemTime - Double(pending.count / ring.channelCount) * successor.itemPerFrame
                if ring.splice(pending, at: position, itemTime: label, itemPerFrame: successor.itemPerFrame, fade: fade) {
                    return successor
                }
                if pending.count < fade * ring.channelCount { return self }
            }
        }
    }
}
