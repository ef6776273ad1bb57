import SlomoCore
import SlomoMedia

extension RecordingWriter {
    /// Writes a packet, first closing the fragment when it is long enough and this packet
    /// can start the next one; stops the recording instead when the packet would reach a limit.
    func writePacket(_ packet: Packet, track: RecordingTrack) throws {
        let time = MediaTime(ticks: packet.pts ?? 0, timeBase: packet.timeBase).nanoseconds
        let startsFragment = hasVideoTrack ? (!track.isAudio && packet.isKeyframe) : true
        if startsFragment && pendingSamples > 0 && time - fragmentStart >= settings.fragmentInterval.nanoseconds - 1_000_000 {
            try muxer.flushFragment()
            try writeAddedTags()
            fragmentStart = time
            pendingBytes = 0
            pendingSamples = 0
            freeSpace.remeasure()
        }
        let size = Int64(packet.size)  // the muxer empties the packet
        if let reason = limitReached(adding: size) {
            fail(reason)
            return
        }
        try muxer.write(packet, stream: track.muxerStream)
        pendingBytes += size
        pendingSamples += 1
        let onDisk = muxer.bytesWritten + pendingBytes
        shared.withLock { $0.bytesOnDisk = onDisk }
    }

    /// The size or free-space limit that writing `size` more bytes would reach, if any. The
    /// projection counts the fragment still held in memory, its index (`moof`, about 16 bytes a
    /// sample) and a reserve for the trailer.
    func limitReached(adding size: Int64) -> CaptureStopReason? {
        let overhead = 16 * 1024 + 24 * (pendingSamples + 1)
        // What the kernel has not got yet still has to fit on the disk.
        let unwritten = pendingBytes + size + overhead
        var measurement = RecordingLimits.Measurement(fileSize: muxer.bytesWritten + unwritten)
        if limits.minimumFreeSpace != nil {
            measurement.freeSpace = freeSpace.bytesFree(near: settings.path) - unwritten
        }
        return limits.reached(by: measurement)
    }

    /// Writes the tags into the header on disk when some were added since the last time
    /// (between fragments or after the trailer).
    func writeAddedTags() throws {
        let (current, version) = shared.read { ($0.tags, $0.tagsVersion) }
        guard version != tagsVersionOnDisk else { return }
        try muxer.rewriteHeaderMetadata(current, options: MovieFileOutput.headerOptions)
        tagsVersionOnDisk = version
    }
}
