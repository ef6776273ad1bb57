import SlomoCore
import SlomoMedia

extension MovieFileOutput {
    /// Writes queued samples until the queue is closed, then finishes the file (writer thread).
    func runWriter() {
        writerOwnership.claim()
        guard let queue = shared.read(\.queue) else { preconditionFailure("runWriter() before prepare()") }
        while let sample = try? queue.pop() { // never failed, only finished: pop cannot throw
            let isAudio = writer.tracks[sample.input]?.isAudio ?? false
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
    private func fail(_ reason: CaptureStopReason) {
        let first: Bool = shared.withLock { shared in
            if let earlier = shared.stopReason, earlier != .stopped, !earlier.isSourceEnd { return false }
            if shared.stopReason == nil || reason.isProblem || reason == .maximumSize || reason == .minimumFreeSpace {
                shared.stopReason = reason
            }
            return true
        }
        if first { onStop?(reason) }
    }

    private func write(_ sample: CapturedSample) throws {
        guard let track = writer.tracks[sample.input], let muxer = writer.muxer else { return }
        let offset = sample.time
        switch sample.payload {
        case .frame(let frame):
            if let sound = track.sound {
                track.stampSound(frame, at: offset)
                for packet in try sound.encode(frame) { try writePacket(packet, track: track, muxer: muxer) }
                noteSoundWritten(end: track.soundEnd(of: frame, at: offset))
            } else if let encoder = track.encoder {
                let picture = try track.encodable(frame)
                track.stampPicture(picture, at: offset, keyframeInterval: settings.fragmentInterval.nanoseconds)
                for packet in try encoder.encode(picture) { try writePacket(packet, track: track, muxer: muxer) }
                noteVideoWritten(end: offset)
            }
        case .packet(let packet):
            track.stampCopiedPacket(packet, at: offset)
            try writePacket(packet, track: track, muxer: muxer)
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

    /// Writes a packet, first closing the fragment when it is long enough and this packet
    /// can start the next one; stops the recording instead when the packet would reach a limit.
    private func writePacket(_ packet: Packet, track: RecordingTrack, muxer: Muxer) throws {
        let time = MediaTime(ticks: packet.pts ?? 0, timeBase: packet.timeBase).nanoseconds
        let startsFragment = hasVideoTrack ? (!track.isAudio && packet.isKeyframe) : true
        if startsFragment && writer.pendingSamples > 0
            && time - writer.fragmentStart >= settings.fragmentInterval.nanoseconds - 1_000_000 {
            try muxer.flushFragment()
            try writeAddedTags(to: muxer)
            writer.fragmentStart = time
            writer.pendingBytes = 0
            writer.pendingSamples = 0
            writer.freeSpace.remeasure()
        }
        let size = Int64(packet.size)  // the muxer empties the packet
        if let reason = limitReached(adding: size) {
            fail(reason)
            return
        }
        try muxer.write(packet, stream: track.muxerStream)
        writer.pendingBytes += size
        writer.pendingSamples += 1
        let onDisk = muxer.bytesWritten + writer.pendingBytes
        shared.withLock { $0.bytesOnDisk = onDisk }
    }

    /// True when one of the tracks records video: then fragments start at its keyframes.
    private var hasVideoTrack: Bool { writer.tracks.values.contains { !$0.isAudio } }

    /// The size or free-space limit that writing `size` more bytes would reach, if any. The
    /// projection counts the fragment still held in memory, its index (`moof`, about 16 bytes a
    /// sample) and a reserve for the trailer.
    func limitReached(adding size: Int64) -> CaptureStopReason? {
        guard let muxer = writer.muxer else { return nil }
        let overhead = 16 * 1024 + 24 * (writer.pendingSamples + 1)
        // What the kernel has not got yet still has to fit on the disk.
        let unwritten = writer.pendingBytes + size + overhead
        var measurement = RecordingLimits.Measurement(fileSize: muxer.bytesWritten + unwritten)
        if limits.minimumFreeSpace != nil {
            measurement.freeSpace = writer.freeSpace.bytesFree(near: settings.path) - unwritten
        }
        return limits.reached(by: measurement)
    }
}
