import SlomoCore
import SlomoMedia

/// The passthrough mode of `ExportSession`: video packets copied bit for bit with timestamps
/// from the time map, audio tracks rendered through the same map and encoded, all written in
/// output-time order.
struct PassthroughExport {
    let session: ExportSession

    /// Containers whose time bases can hold the exact timestamps passthrough needs.
    static let containers: Set<String> = ["mov", "mp4", "m4v"]

    func run(progress report: (ExportProgress) -> Void) throws -> ExportResult {
        guard session.composition.clips.count == 1, let clip = session.composition.clips.first else {
            throw ExportError(.invalidPlan, "passthrough exports one clip; this composition has \(session.composition.clips.count) (use constant frame rate to join clips)")
        }
        let fileExtension = session.outputPath.split(separator: ".").last.map { String($0).lowercased() } ?? ""
        guard Self.containers.contains(fileExtension) else {
            throw ExportError(.unsupportedContainer, "\(session.outputPath): passthrough writes .mov, .mp4 or .m4v (exact timestamps need their time bases)")
        }
        let map = try clip.timeMap()
        let videoReader = try Demuxer(path: clip.source)
        let file = videoReader.file
        guard let video = file.videoStream else {
            throw ExportError(.noVideo, "\(clip.source): has no video stream to retime (use `slomo stretch` for audio)")
        }
        videoReader.select(streams: [video.index])
        let origin = video.startTime ?? file.startTime ?? .zero

        let muxer = try Muxer(path: session.outputPath, overwrite: session.settings.overwrite)
        let videoOut = try muxer.addStream(copying: video.index, of: videoReader)
        let chosen = PassthroughTimeBase.choose(for: map, inputTimeBase: video.timeBase, origin: origin)
        muxer.setTimeBase(chosen.timeBase, stream: videoOut)
        let audioTracks = try file.audioStreams.map { stream in
            try AudioTrackExport(path: clip.source, stream: stream.index, map: map, origin: origin,
                                 algorithm: session.settings.audioAlgorithm, codec: session.settings.audioCodec, muxer: muxer)
        }
        muxer.setMetadata(file.metadata.filter { Self.keptTags.contains($0.key) })
        var options = ["video_track_timescale": String(chosen.timeBase.denominator)]
        // Dolby Vision configuration survives into .mp4 only with unofficial extensions allowed.
        if fileExtension != "mov" { options["strict"] = "unofficial" }
        try muxer.writeHeader(options: options)

        var retimer = PacketRetimer(map: map, origin: origin, outputTimeBase: muxer.timeBase(ofStream: videoOut))
        var queue = OutputQueue()
        queue.add(video: try nextVideo(videoReader, stream: video.index, &retimer), stream: videoOut)
        for (slot, track) in audioTracks.enumerated() { queue.add(audio: try track.nextPacket(), slot: slot, stream: track.outputStream) }

        var written = ExportProgress(outputTime: .zero, outputDuration: map.outputDuration, videoFrames: 0,
                                     phase: "copying video" + (audioTracks.isEmpty ? "" : ", rendering audio (\(session.settings.audioAlgorithm))"))
        var lastReport = -1.0
        do {
            while let next = queue.popEarliest() {
                try session.checkCancelled()
                let time = next.packet.decodingTime ?? next.packet.presentationTime ?? written.outputTime
                try muxer.write(next.packet, stream: next.stream)
                written.outputTime = max(written.outputTime, time)
                switch next.source {
                case .video:
                    written.videoFrames += 1
                    queue.add(video: try nextVideo(videoReader, stream: video.index, &retimer), stream: videoOut)
                case .audio(let slot):
                    queue.add(audio: try audioTracks[slot].nextPacket(), slot: slot, stream: next.stream)
                }
                if written.fraction - lastReport >= 0.01 {
                    lastReport = written.fraction
                    report(written)
                }
            }
            try muxer.finish()
        } catch {
            muxer.abandon()
            throw error
        }
        written.outputTime = map.outputDuration
        report(written)
        return ExportResult(outputPath: session.outputPath, outputDuration: map.outputDuration,
                            videoFrames: written.videoFrames, audioTracks: audioTracks.count,
                            nudgedPackets: retimer.nudgedPackets)
    }

    /// Container tags that still describe the retimed movie.
    static let keptTags: Set<String> = ["creation_time", "title", "artist", "comment", "location", "location-eng",
                                        "com.apple.quicktime.location.ISO6709", "com.apple.quicktime.make",
                                        "com.apple.quicktime.model"]

    private func nextVideo(_ reader: Demuxer, stream: Int, _ retimer: inout PacketRetimer) throws -> Packet? {
        while let packet = try reader.read() {
            guard packet.streamIndex == stream else { continue }
            try retimer.retime(packet)
            return packet
        }
        return nil
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
