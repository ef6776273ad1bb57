import Foundation
import SlomoConcurrency
import SlomoComposition
import SlomoCore
import SlomoMedia

/// A decoded picture and when it plays, moved from the decoding thread to the screen's.
struct Picture {
    /// The decoded frame, owned by whoever holds the picture.
    let frame: Frame
    /// When it plays, in item output time (rate 1).
    let itemTime: MediaTime
    /// Its time in its clip's file (from where the file's video starts).
    let sourceTime: MediaTime
    /// Which clip of the item it belongs to.
    let clip: Int
}

/// The thread that decodes the item's pictures from a start time on, in output order, a few
/// ahead of the screen: forwards, and a reversed section's GOP by GOP from its end
/// (`BackwardPictureReader`). The first picture is the one showing at the start time. When the presenter falls behind, the decoder skips pictures no other
/// picture references, so a 240 fps source decodes what a 60 Hz screen can show.
final class VideoFeed: Sendable {
    private struct State {
        var pictures: [Picture] = []
        var ended = false
        var stopped = false
        var failure: Error?
        var behind = false
        var capacity = VideoFeed.minimumCapacity
    }

    /// Pictures decoded ahead at least: enough to ride out a slow keyframe, few enough to stay small.
    static let minimumCapacity = 6

    /// Waited on by the decoder when the pictures fill their room, and by `takeNext`.
    private let state = Guarded(State())
    private let worker = PipelineWorker("slomo video feed")
    /// Where damage the decoder meets is said.
    private let damage: DamageNotices

    /// Starts decoding `item` from output time `start`.
    init(item: PlayerItem, start: MediaTime, damage: DamageNotices) {
        self.damage = damage
        worker.start { [self] in
            do {
                try decode(item, from: start)
            } catch is Stopped {
            } catch {
                state.withLock { $0.failure = error }
            }
            state.withLock { $0.ended = true }
        }
    }

    /// The error that stopped decoding, if any.
    var failure: Error? { state.read(\.failure) }
    /// True once every picture was decoded and taken.
    var isFinished: Bool { state.read { $0.ended && $0.pictures.isEmpty } }

    /// Tells the decoder whether the screen is falling behind (it then skips pictures no
    /// other picture needs).
    func setBehind(_ behind: Bool) { state.withLock { $0.behind = behind } }

    /// Keeps room for two refreshes' worth of pictures besides the minimum, so a fast source
    /// (240 fps at 2x: 8 pictures a 60 Hz refresh) is never late for want of room.
    func setPicturesPerRefresh(_ count: Double) {
        state.withLock { $0.capacity = Self.minimumCapacity + min(Int(count.rounded(.up)) * 2, 48) }
    }

    /// Takes every picture due at `time`: the latest of them, and the output times of those it
    /// supersedes (never shown).
    func takeDue(at time: MediaTime) -> (latest: Picture?, superseded: [MediaTime]) {
        state.withLock { state in
            let count = state.pictures.prefix { $0.itemTime <= time }.count
            guard count > 0 else { return (nil, []) }
            let due = state.pictures[..<count]
            let result = (due.last, due.dropLast().map(\.itemTime))
            state.pictures.removeFirst(count)
            return result
        }
    }

    /// The next picture, waiting up to `timeout` seconds for it to be decoded.
    func takeNext(timeout: Double = 2) -> Picture? {
        guard state.wait(until: { !$0.pictures.isEmpty || $0.ended }, deadline: Date().addingTimeInterval(timeout)) else {
            return nil
        }
        return state.withLock { $0.pictures.isEmpty ? nil : $0.pictures.removeFirst() }
    }

    /// Stops decoding and waits for the thread.
    func stop() {
        state.withLock { $0.stopped = true }
        worker.join()
    }

    private struct Stopped: Error {}

    /// Queues `picture` once there is room for it; throws `Stopped` when playback stops first.
    private func push(_ picture: sending Picture) throws {
        try state.wait(until: { $0.stopped || $0.pictures.count < $0.capacity }, moving: picture) { state, picture in
            if state.stopped { throw Stopped() }
            state.pictures.append(picture)
        }
    }

    private func decode(_ item: PlayerItem, from start: MediaTime) throws {
        let first = item.map.source(atOutput: start).clip
        for index in first..<item.map.entries.count {
            for run in item.map.entries[index].map.runs where run.output.end > start {
                if run.reversed {
                    try decodeBackwards(run, clip: index, of: item, from: start)
                } else {
                    try decodeForwards(run, clip: index, of: item, from: start)
                }
            }
        }
    }

    /// Decodes a forward run of clip `index` from output time `start` (the picture showing
    /// there first) to its end.
    private func decodeForwards(_ run: TimeMap.Run, clip index: Int, of item: PlayerItem, from start: MediaTime) throws {
        let entry = item.map.entries[index]
        let file = item.files[index]
        guard let video = file.videoStream else { return }
        let from = run.output.contains(start) ? max(entry.map.sourceTime(at: start), run.source.start) : run.source.start
        let demuxer = try Demuxer(path: file.path)
        demuxer.select(streams: [video.index])
        let origin = file.clipOrigin
        if from > .zero { try demuxer.seek(to: from + origin, stream: video.index) }
        let decoder = try Decoder(demuxer: demuxer, stream: video.index, threads: 2)
        // The picture showing at `from`, held until a later one shows it is the last before: in
        // a `Guarded` value, from which it comes back out as the decoder's alone, to be queued.
        let held = Guarded<Picture?>(nil)
        /// Queues `frame`'s picture, or holds it while it may still be the one showing at
        /// `from`; false once past the run.
        func take(_ frame: sending Frame) throws -> Bool {
            guard let pts = frame.presentationTime else { return true }
            let time = pts - origin
            // A run that ends with a freeze holds the picture at its end.
            if time > run.source.end || (time == run.source.end && !run.endsWithHold) { return false }
            let picture = Picture(frame: frame, itemTime: PictureTiming.outputTime(showing: time..<time, in: run, of: entry.map),
                                  sourceTime: time, clip: index)
            if time <= from {
                held.withLock(moving: picture) { $0 = $1 }
            } else {
                if let first = held.withLock({ $0.take() }) { try push(first) }
                try push(picture)
            }
            return true
        }
        reading: while true {
            decoder.skipping = state.read(\.behind) ? .nonReference : .none
            guard let packet = try demuxer.read() else { break }
            guard packet.streamIndex == video.index, !packet.isCorrupt else { continue }
            try decoder.sendSkippingDamaged(packet)
            while let frame = try decoder.receive() {
                if !(try take(frame)) { break reading }
            }
            if let found = decoder.damageReport(for: video) { damage.report(found, in: file.path) }
        }
        try decoder.sendEndOfStream()
        while let frame = try decoder.receive() { if !(try take(frame)) { break } }
        if let first = held.withLock({ $0.take() }) { try push(first) }
    }

    /// Decodes a reversed run of clip `index` GOP by GOP from its end (or from output time
    /// `start` inside it): each picture plays from where the end of its display maps to.
    private func decodeBackwards(_ run: TimeMap.Run, clip index: Int, of item: PlayerItem, from start: MediaTime) throws {
        let entry = item.map.entries[index]
        let file = item.files[index]
        guard let video = file.videoStream else { return }
        let from = run.output.contains(start) ? entry.map.sourceTime(at: start) : run.source.end
        let reader = try BackwardPictureReader(demuxer: try Demuxer(path: file.path), stream: video.index, threads: 2)
        try reader.read(before: from, through: run.source.start, floor: entry.clip.range.start) { gop in
            for picture in gop where picture.end > run.source.start {
                // A new reference to the picture (its buffers are not copied): the GOP keeps its own.
                try push(Picture(frame: try picture.frame.clone(),
                                 itemTime: PictureTiming.outputTime(showing: picture.time..<picture.end, in: run, of: entry.map),
                                 sourceTime: picture.time, clip: index))
            }
            if let found = reader.damage { damage.report(found, in: file.path) }
            return true
        }
    }
}
