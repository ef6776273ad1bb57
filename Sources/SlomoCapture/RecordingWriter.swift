import SlomoConcurrency
import SlomoCore
import SlomoMedia

/// What a `MovieFileOutput`'s writer thread owns: the file and its tracks (C state), the tags
/// last written into the header, where the fragment being written starts, and the bytes and
/// samples it still holds in memory.
///
/// `MovieFileOutput.prepare` makes it on the session's thread and hands it, as `sending`, to the
/// one worker that runs it (`run()`): it is not `Sendable`, so the compiler checks that no other
/// thread keeps it. What the writer shares with the capture threads and callers (counters, time
/// line, stop reason, tags, the result) is in the output's `shared` lock.
final class RecordingWriter {
    let settings: MovieFileOutput.Settings
    let limits: RecordingLimits
    let shared: Guarded<MovieFileOutput.Shared>
    /// Where the capture threads leave the samples.
    let queue: PipelineQueue<CapturedSample>
    let muxer: Muxer
    /// The tracks by input index.
    let tracks: [Int: RecordingTrack]
    /// True when one of the tracks records video: then fragments start at its keyframes.
    let hasVideoTrack: Bool
    var tagsVersionOnDisk = 0
    var fragmentStart: Int64 = 0
    var pendingBytes: Int64 = 0
    var pendingSamples: Int64 = 0
    var freeSpace = FreeSpaceProbe()

    init(output: MovieFileOutput, queue: PipelineQueue<CapturedSample>, muxer: Muxer, tracks: [Int: RecordingTrack]) {
        settings = output.settings
        limits = output.limits
        shared = output.shared
        self.queue = queue
        self.muxer = muxer
        self.tracks = tracks
        hasVideoTrack = tracks.values.contains { !$0.isAudio }
    }

    /// Writes queued samples until the queue is closed, then finishes the file (writer thread).
    func run() {
        while let sample = try? queue.pop() { // never failed, only finished: pop cannot throw
            let isAudio = tracks[sample.input]?.isAudio ?? false
            let stopped: Bool = shared.withLock { shared in
                shared.count(audio: isAudio) { $0.queued -= 1 }
                guard let reason = shared.stopReason, reason != .maximumDuration, reason != .stopped, !reason.isSourceEnd else {
                    return false
                }
                shared.count(audio: isAudio) { $0.droppedAtStop += 1 }
                return true
            }
            if stopped { continue }
            do {
                try write(sample)
            } catch {
                fail(.failed("\(error)"))
            }
        }
        finish(leaving: queue.removeAll())
    }

    /// Records the first reason to stop and tells the session.
    func fail(_ reason: CaptureStopReason) {
        let tell: (@Sendable (CaptureStopReason) -> Void)? = shared.withLock { shared in
            if let earlier = shared.stopReason, earlier != .stopped, !earlier.isSourceEnd { return nil }
            if shared.stopReason == nil || reason.isProblem || reason == .maximumSize || reason == .minimumFreeSpace {
                shared.stopReason = reason
            }
            return shared.onStop
        }
        tell?(reason)
    }

    private func write(_ sample: CapturedSample) throws {
        guard let track = tracks[sample.input] else { return }
        let offset = sample.time
        switch sample.payload {
        case .frame(let frame):
            if let sound = track.sound {
                track.stampSound(frame, at: offset)
                for packet in try sound.encode(frame) { try writePacket(packet, track: track) }
                noteSoundWritten(end: track.soundEnd(of: frame, at: offset))
            } else if let encoder = track.encoder {
                let picture = try track.encodable(frame)
                track.stampPicture(picture, at: offset, keyframeInterval: settings.fragmentInterval.nanoseconds)
                for packet in try encoder.encode(picture) { try writePacket(packet, track: track) }
                noteVideoWritten(end: offset)
            }
        case .packet(let packet):
            track.stampCopiedPacket(packet, at: offset)
            try writePacket(packet, track: track)
            if track.isAudio {
                noteSoundWritten(end: offset)
            } else {
                noteVideoWritten(end: offset)
            }
        }
    }

    private func noteVideoWritten(end offset: Int64) {
        shared.withLock {
            $0.counters.delivered += 1
            $0.lastVideoEnd = max($0.lastVideoEnd, offset)
        }
    }

    private func noteSoundWritten(end: Int64) {
        shared.withLock {
            $0.audioCounters.delivered += 1
            $0.lastAudioEnd = max($0.lastAudioEnd, end)
        }
    }
}
