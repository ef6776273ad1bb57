import SlomoMedia

extension MovieFileOutput {
    /// Ends the file once the queue is closed and empty (writer thread): counts what is still
    /// queued as dropped, writes what the encoders hold back unless the recording failed,
    /// writes the trailer and the tags added last, and settles the result. A recording with
    /// nothing in it leaves no file.
    func finish() {
        for sample in queue.removeAll() {
            let isAudio = tracks[sample.input]?.isAudio ?? false
            state.withLock {
                if isAudio { audioCounters.queued -= 1; audioCounters.droppedAtStop += 1 } else {
                    counters.queued -= 1
                    counters.droppedAtStop += 1
                }
            }
        }
        var problem: String?
        if let muxer {
            do throws(FFmpegError) {
                if state.withLock({ stopReason.map { !$0.isProblem || $0.isSourceEnd } ?? true }) {
                    try writeHeldPackets(to: muxer)
                }
            } catch {
                problem = error.description
            }
            do {
                try muxer.finish()
                try writeAddedTags(to: muxer)
            } catch {
                problem = problem ?? "\(error)"
                muxer.abandon()
            }
        }
        self.muxer = nil
        tracks.removeAll()
        let size = (try? FileSystem.status(of: settings.path)).map { Int64($0.st_size) } ?? 0
        state.withLock {
            if !wroteSomething { try? FileSystem.removeFile(at: settings.path) }
            let result = settledResult(problem: problem, fileSize: size)
            finalResult = result
            bytesOnDisk = result.fileSize
        }
    }

    /// Drains every encoder, in input order, as long as the packets fit the limits.
    private func writeHeldPackets(to muxer: Muxer) throws(FFmpegError) {
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

    /// The result of the finished recording (under `state`): why it stopped, whether the file
    /// plays to its end, what it holds. `problem` is what went wrong while finishing.
    private func settledResult(problem: String?, fileSize: Int64) -> RecordingResult {
        var reason = stopReason ?? .stopped
        if let problem, !reason.isProblem { reason = .failed(problem) }
        let failed = if case .failed = reason { true } else { false }
        let frameDuration: Int64 = counters.delivered > 1 && lastVideoEnd > 0 ? lastVideoEnd / Int64(counters.delivered - 1) : 0
        return RecordingResult(
            path: settings.path, reason: reason, finishedSuccessfully: problem == nil && wroteSomething && !failed,
            duration: Double(max(lastVideoEnd + frameDuration, lastAudioEnd)) / 1e9,
            videoFrames: counters.delivered, counters: counters, fileSize: wroteSomething ? fileSize : 0,
            pausedSeconds: Double(timeline.pausedNanoseconds) / 1e9,
            finishingProblem: problem ?? (wroteSomething ? nil : "nothing was recorded"))
    }

    /// True when a video frame or a sound block is in the file (under `state`).
    private var wroteSomething: Bool { counters.delivered + audioCounters.delivered > 0 }
}
