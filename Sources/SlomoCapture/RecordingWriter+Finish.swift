import SlomoMedia

extension RecordingWriter {
    /// Ends the file once the queue is closed: counts `leftOver`, what was still queued, as
    /// dropped, writes what the encoders hold back unless the recording failed, writes the
    /// trailer and the tags added last, and settles the result. A recording with nothing in it
    /// leaves no file.
    func finish(leaving leftOver: [CapturedSample]) {
        for sample in leftOver {
            let isAudio = tracks[sample.input]?.isAudio ?? false
            shared.withLock { shared in
                shared.count(audio: isAudio) {
                    $0.queued -= 1
                    $0.droppedAtStop += 1
                }
            }
        }
        var problem: String?
        do throws(FFmpegError) {
            if shared.read({ $0.stopReason.map { !$0.isProblem || $0.isSourceEnd } ?? true }) {
                try writeHeldPackets()
            }
        } catch {
            problem = error.description
        }
        do {
            try muxer.finish()
            try writeAddedTags()
        } catch {
            problem = problem ?? "\(error)"
            muxer.abandon()
        }
        let path = settings.path
        let size = (try? FileSystem.status(of: path)).map { Int64($0.st_size) } ?? 0
        shared.withLock { shared in
            if !shared.wroteSomething { try? FileSystem.removeFile(at: path) }
            let result = shared.settledResult(path: path, problem: problem, fileSize: size)
            shared.finalResult = result
            shared.bytesOnDisk = result.fileSize
        }
    }

    /// Drains every encoder, in input order, as long as the packets fit the limits.
    private func writeHeldPackets() throws(FFmpegError) {
        for (_, track) in tracks.sorted(by: { $0.key < $1.key }) {
            var held: [Packet] = []
            if let encoder = track.encoder { held = try encoder.encode(nil) }
            if let sound = track.sound { held = try sound.encode(nil) }
            for packet in held {
                let size = Int64(packet.size)
                if limitReached(adding: size) != nil { break }
                try muxer.write(packet, stream: track.muxerStream)
                pendingBytes += size
            }
        }
    }
}
