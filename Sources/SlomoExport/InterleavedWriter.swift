import SlomoComposition
import SlomoConcurrency
import SlomoCore
import SlomoMedia

/// The output side every export mode shares: audio tracks rendered through the time map on
/// their own threads, video packets from the mode, both written into the muxer in output-time
/// order, progress, cancellation, and the all-or-nothing finish (the temporary file is renamed
/// onto the target only when everything was written, removed otherwise).
struct InterleavedWriter {
    let session: ExportSession
    let muxer: Muxer
    /// The output duration, for progress.
    let duration: MediaTime
    /// What progress says is happening.
    let phase: String
    /// What the export's decoders found damaged in the sources, for `ExportResult.damage`.
    var damage = ExportWarnings()

    /// Container tags that still describe a retimed movie.
    static let keptTags: Set<String> = ["creation_time", "title", "artist", "comment", "location", "location-eng",
                                        "com.apple.quicktime.location.ISO6709", "com.apple.quicktime.make",
                                        "com.apple.quicktime.model"]

    /// An encoded audio track for every audio stream of `file`, rendered through `map` with the
    /// session's algorithm and codec, added to `muxer`.
    static func audioTracks(of file: MediaFile, map: TimeMap, origin: MediaTime, settings: ExportSettings,
                            muxer: Muxer) throws -> [AudioTrackExport] {
        try audioTracks(joining: [(file, map, origin)], settings: settings, muxer: muxer)
    }

    /// The audio of clips played one after the other, each `file` through its own `map` (whose
    /// source time 0 is the file's `origin`): track `k` joins the `k`-th audio stream of every
    /// clip end to end, a clip with fewer streams contributing silence for its duration; as
    /// many tracks as the clip with the most audio streams has.
    static func audioTracks(joining clips: [(file: MediaFile, map: TimeMap, origin: MediaTime)], settings: ExportSettings,
                            muxer: Muxer) throws -> [AudioTrackExport] {
        let count = clips.map(\.file.audioStreams.count).max() ?? 0
        return try (0..<count).map { track in
            let parts = clips.map { clip in
                let streams = clip.file.audioStreams
                return AudioPart(path: clip.file.path, stream: track < streams.count ? streams[track].index : nil,
                                 map: clip.map, origin: clip.origin)
            }
            return try AudioTrackExport(parts: parts, settings: settings, codec: settings.audioCodec, muxer: muxer)
        }
    }

    /// The audio part of a progress phase: `", rendering audio (spectral)"`, or nothing.
    static func audioPhase(_ tracks: [any EncodedAudioTrack], _ settings: ExportSettings) -> String {
        tracks.isEmpty ? "" : ", rendering audio (\(settings.audioAlgorithm))"
    }

    /// Writes every packet of `nextVideo` (output-time packets of stream `videoStream`, nil at
    /// the end) and of the audio tracks, interleaved by decoding time, then finishes the file.
    /// Audio renders and encodes on one thread per track, ahead of the muxer by a bounded queue.
    /// Damage the audio decoders met is taken before the file is finished (refused in strict
    /// mode, else kept in `damage`). On any error or cancellation the audio threads are stopped
    /// and the file is abandoned.
    /// Returns the number of video packets written.
    func write(video nextVideo: () throws -> Packet?, videoStream: Int, audio tracks: [any EncodedAudioTrack],
               progress report: (ExportProgress) -> Void) throws -> Int {
        let queues = tracks.map { _ in PipelineQueue<Packet>(capacity: 128) }
        let threads = zip(tracks, queues).enumerated().map { index, pair in
            let (track, queue) = pair
            return PipelineWorker("slomo audio \(index)") {
                do {
                    while let packet = try track.nextPacket() { try queue.push(packet) }
                    queue.finish()
                } catch {
                    queue.fail(error)
                    throw error
                }
            }
        }
        var written = ExportProgress(outputTime: .zero, outputDuration: duration, videoFrames: 0, phase: phase)
        do {
            var queue = OutputQueue()
            queue.add(video: try nextVideo(), stream: videoStream)
            for (slot, track) in tracks.enumerated() { queue.add(audio: try queues[slot].pop(), slot: slot, stream: track.outputStream) }
            var throttle = ProgressThrottle()
            while let next = queue.popEarliest() {
                try session.checkCancelled()
                let time = next.packet.decodingTime ?? next.packet.presentationTime ?? written.outputTime
                try muxer.write(next.packet, stream: next.stream)
                written.outputTime = min(duration, max(written.outputTime, time))
                switch next.source {
                case .video:
                    written.videoFrames += 1
                    queue.add(video: try nextVideo(), stream: videoStream)
                case .audio(let slot):
                    queue.add(audio: try queues[slot].pop(), slot: slot, stream: next.stream)
                }
                throttle.offer(written, to: report)
            }
            for thread in threads { if let error = thread.join() { throw error } }
            for track in tracks {
                for (source, found) in track.damage { try session.found(found, in: source, keptIn: damage) }
            }
            try muxer.finish()
        } catch {
            for queue in queues { queue.fail(error) }
            for thread in threads { thread.join() }
            muxer.abandon()
            throw error
        }
        written.outputTime = duration
        report(written)
        return written.videoFrames
    }
}

/// The next packet of each output stream, ordered by output decoding time, so that the file
/// is interleaved and memory stays bounded.
struct OutputQueue {
    enum Source: Hashable { case video, audio(Int) }
    struct Entry { let packet: Packet; let source: Source; let stream: Int }

    private var entries: [Entry] = []

    mutating func add(video packet: Packet?, stream: Int) {
        if let packet { entries.append(Entry(packet: packet, source: .video, stream: stream)) }
    }

    mutating func add(audio packet: Packet?, slot: Int, stream: Int) {
        if let packet { entries.append(Entry(packet: packet, source: .audio(slot), stream: stream)) }
    }

    /// Removes and returns the entry with the earliest decoding time (video first on ties).
    mutating func popEarliest() -> Entry? {
        guard !entries.isEmpty else { return nil }
        func time(_ entry: Entry) -> MediaTime {
            entry.packet.decodingTime ?? entry.packet.presentationTime ?? .zero
        }
        let index = entries.indices.min { time(entries[$0]) < time(entries[$1]) }!
        return entries.remove(at: index)
    }
}
