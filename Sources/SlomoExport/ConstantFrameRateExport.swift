import SlomoConcurrency
import SlomoCore
import SlomoMedia

/// The constant-frame-rate mode of `ExportSession`: every output frame rendered on the grid
/// `n / fps` from the source pictures the time map puts there, re-encoded, with the audio
/// rendered through the same map. Decode, render, encode and each audio track run on their
/// own threads, joined by bounded queues; the muxer interleaves on the calling thread.
struct ConstantFrameRateExport {
    let session: ExportSession
    let frameRate: Rational

    /// Output containers and the codecs they take.
    static let containers: Set<String> = ["mov", "mp4", "m4v", "mkv"]
    /// The container of a chunk's piece (`ExportPart.frames`).
    static let pieceContainer = "nut"
    /// Decoded pictures waiting for the renderer: 8 at 720p, 5 at 1080p, 2 at 4K.
    static let decodedPictures = PictureBudget(bytes: 16 << 20, pictures: 2...8)
    /// Rendered pictures waiting for the encoder, which keeps its own copies: 4 at 720p, 2 at 1080p.
    static let renderedPictures = PictureBudget(bytes: 8 << 20, pictures: 2...4)

    func run(progress report: (ExportProgress) -> Void) throws -> ExportResult {
        let settings = session.video
        try settings.validate(frameRate: frameRate)
        let fileExtension = session.outputExtension
        let part = session.settings.part
        if part?.isPiece == true || part == .audio {
            guard fileExtension == Self.pieceContainer else {
                throw ExportError(.unsupportedContainer, "\(session.outputPath): a chunk's piece is written as .\(Self.pieceContainer)")
            }
        } else if !Self.containers.contains(fileExtension) {
            throw ExportError(.unsupportedContainer, "\(session.outputPath): constant-frame-rate export writes .mov, .mp4, .m4v or .mkv")
        }
        let map = try CompositionMap(session.composition)
        let files = try map.entries.map { entry -> MediaFile in
            let file = try MediaFile(path: entry.clip.source)
            guard file.videoStream?.video != nil else {
                throw ExportError(.noVideo, "\(entry.clip.source): has no video stream to render", hint: .stretchSoundAlone)
            }
            return file
        }
        let firstVideo = files[0].videoStream!.video!
        let encoding = try VideoEncoding(settings, source: firstVideo, path: files[0].path)
        let picture = OutputPicture(sourceWidth: firstVideo.width, sourceHeight: firstVideo.height,
                                    sampleAspectRatio: firstVideo.sampleAspectRatio, size: settings.size, scaling: settings.scaling)
        for (file, entry) in zip(files, map.entries) where file.videoStream!.video!.isHDR != firstVideo.isHDR {
            throw ExportError(.invalidPlan, "\(entry.clip.source): mixes HDR and SDR clips in one export; convert them to one kind first")
        }
        let warnings = ExportWarnings()
        let damage = ExportWarnings()
        let schedules = try zip(files, map.entries).map { file, entry in
            var schedule = try SlotSchedule(map: entry.map, frameRate: frameRate, sourceFrameRate: entry.clip.frameRate,
                                            frameTimes: try SourceFrameTimes.of(file), defaultChoice: settings.frames)
            // Pictures optical flow cannot take (4:4:4, alpha, RGB, tiny) are blended instead, with a warning.
            let video = file.videoStream!.video!
            if schedule.choices.contains(.interpolate),
               let reason = FlowInterpolator.unsupportedReason(width: video.width, height: video.height, pixelFormat: video.pixelFormat) {
                schedule.replace(.interpolate, with: .blend)
                warnings.add("\(entry.clip.source): interpolate: blending instead, \(reason.detail)")
            }
            if case .frames(let frames) = part { schedule.restrict(to: frames) }
            schedule.exposure = settings.shutter.exposure(at: frameRate)
            return schedule
        }
        let frameCount = schedules.last?.slots.upperBound ?? 0
        if case .frames(let frames) = part, frames.isEmpty || frames.upperBound > frameCount {
            throw ExportError(.invalidPlan, "output frames \(frames.lowerBound)-\(frames.upperBound): the export has frames 0-\(frameCount)")
        }

        let muxer = try Muxer(path: session.outputPath, overwrite: session.settings.overwrite)
        let hdr = firstVideo.isHDR && !encoding.toneMaps
            ? try HDRMetadata.of(files[0].path, stream: files[0].videoStream!) : HDRMetadata()
        // The output's video stream: an encoder's, the pieces' copied (a join), or none (a chunked
        // export's audio part). The encoder goes to the encode stage; the pieces stay here.
        var videoOut: Int?, encoder: Encoder?, pieces: PieceReader?
        switch part {
        case .audio?:
            break
        case .join(let parts, _)?:
            let reader = try PieceReader(pieces: parts, frameRate: frameRate, frames: frameCount)
            let first = reader.first
            videoOut = try encoding.addStream(copying: first.stream, of: first.demuxer, to: muxer, frameRate: frameRate)
            pieces = reader
        case .frames?, nil:
            let added = try encoding.addStream(to: muxer, width: picture.width, height: picture.height, frameRate: frameRate, hdr: hdr)
            videoOut = added.stream
            encoder = added.encoder
        }
        if let videoOut, let first = map.entries.first, let stream = files[0].videoStream {
            let reader = try Demuxer(path: first.clip.source)
            try muxer.copySideData(encoding.toneMaps ? [.displayMatrix] : [.displayMatrix, .masteringDisplay, .contentLight],
                                   from: stream.index, of: reader, to: videoOut)
            try muxer.setHDRMetadata(masteringDisplay: hdr.masteringDisplay, contentLight: hdr.contentLight, stream: videoOut)
        }
        if let videoOut, let timecode = try startTimecode(of: files[0]) { muxer.setMetadata(["timecode": timecode], stream: videoOut) }
        let audioTracks = try self.audioTracks(of: part, files: files, map: map, muxer: muxer)
        if part != .audio { muxer.setMetadata(files[0].metadata.filter { InterleavedWriter.keptTags.contains($0.key) }) }
        try muxer.writeHeader()

        // The pipeline: decode → render → encode, each on its own thread, with queues sized in bytes.
        let largest = files.map { $0.videoStream!.video! }.max { $0.width * $0.height < $1.width * $1.height }!
        let sourceFrames = PipelineQueue<SourceItem>(capacity: Self.decodedPictures.capacity(
            width: largest.width, height: largest.height, pixelFormat: largest.pixelFormat))
        let rendered = PipelineQueue<Frame>(capacity: Self.renderedPictures.capacity(
            width: picture.width, height: picture.height, pixelFormat: encoding.pixelFormat.name))
        let packets = PipelineQueue<Packet>(capacity: 64)
        let queues: [@Sendable (Error) -> Void] = [sourceFrames.fail, rendered.fail, packets.fail]
        func stage(_ name: String, _ body: sending @escaping () throws -> Void) -> PipelineWorker {
            PipelineWorker("slomo \(name)") {
                do { try body() } catch {
                    for fail in queues { fail(error) }
                    throw error
                }
            }
        }
        // Each clip's slots in passes that read their pictures one way (reversed sections backwards).
        let passes = try zip(map.entries, schedules).map { entry, schedule in
            try schedule.passes(sourceFrameRate: entry.clip.frameRate, defaultChoice: settings.frames)
        }
        let decode = SourceFrameStage(clips: zip(map.entries, passes).flatMap { entry, passes in
            passes.map { SourceFrameStage.Clip(path: entry.clip.source, range: entry.clip.range, schedule: $0.schedule, reversed: $0.reversed) }
        }, output: sourceFrames, statistics: session.decodeStatistics, session: session, damage: damage)
        // Later clips fit the first one's frame, letterboxed (`fit` would change the frame size).
        let frame = OutputSettings.Size(width: picture.width, height: picture.height)
        let later: OutputSettings.Scaling = settings.size == nil || settings.scaling == .fit ? .aspect : settings.scaling
        let render = SlotRenderer(clips: zip(files, passes).enumerated().flatMap { index, pair in
            let video = pair.0.videoStream!.video!
            let placed = index == 0 ? picture : OutputPicture(sourceWidth: video.width, sourceHeight: video.height,
                                                              sampleAspectRatio: video.sampleAspectRatio, size: frame, scaling: later)
            return pair.1.map { SlotRenderer.Clip(schedule: $0.schedule, video: video, picture: placed) }
        }, encoding: encoding, frameRate: frameRate, interpolation: settings.interpolation, shutter: settings.shutter,
                                  input: sourceFrames, output: rendered, warnings: warnings)
        let encodes = encoder != nil
        var threads: [PipelineWorker] = []
        if let encoder = encoder.take() {
            threads = [
                stage("decode") { try decode.run() },
                stage("render") { try render.run() },
                stage("encode") {
                    while let frame = try rendered.pop() {
                        try encoder.send(frame)
                        while let packet = try encoder.receive() { try push(packet, to: packets) }
                    }
                    try encoder.sendEndOfStream()
                    while let packet = try encoder.receive() { try push(packet, to: packets) }
                    packets.finish()
                },
            ]
        }

        let choices = Set(schedules.flatMap(\.choices))
        var phase = "rendering \(frameRate) fps (\(choices.map(\.rawValue).sorted().joined(separator: ", "))), encoding \(settings.codec.rawValue)"
        if choices.contains(.interpolate) { phase = "interpolating (optical flow, \(settings.interpolation.rawValue)), " + phase }
        if case .join(let parts, _) = part { phase = "joining \(parts.count) pieces" }
        if part == .audio { phase = "rendering the audio of \(frameCount) frames" }
        let writer = InterleavedWriter(session: session, muxer: muxer, duration: map.outputDuration,
                                       phase: phase + InterleavedWriter.audioPhase(audioTracks, session.settings), damage: damage)
        let frames: Int
        do {
            let nextVideo: () throws -> Packet? = pieces.map { reader in { try reader.next() } }
                ?? (encodes ? { try packets.pop() } : { nil })
            frames = try writer.write(video: nextVideo, videoStream: videoOut ?? -1, audio: audioTracks, progress: report)
        } catch {
            for fail in queues { fail(error) }
            for thread in threads { thread.join() }
            throw error
        }
        for thread in threads { if let error = thread.join() { throw error } }
        let expected = part == .audio ? 0 : part?.frames?.count ?? frameCount
        guard frames == expected else {
            throw ExportError(.invalidPlan, "\(session.outputPath): \(frames) frames written where the plan has \(expected)")
        }
        return ExportResult(outputPath: session.outputPath, outputDuration: map.outputDuration, videoFrames: frames,
                            audioTracks: audioTracks.count, nudgedPackets: 0,
                            warnings: warnings.all + audioTracks.flatMap(\.warnings), damage: damage.all)
    }

    /// Each clip's audio through its own map, joined end to end (source time 0 is where its
    /// video starts), rendered and encoded; for a join with an audio part, that part's packets
    /// copied (rendered and encoded once, as a single pass does); for a piece, none.
    private func audioTracks(of part: ExportPart?, files: [MediaFile], map: CompositionMap, muxer: Muxer) throws -> [any EncodedAudioTrack] {
        if part?.isPiece == true { return [] }
        if case .join(_, let rendered?)? = part {
            let file = try MediaFile(path: rendered)
            let priming = Int(file.metadata[Self.primingTag] ?? "") ?? 0
            return try file.audioStreams.map {
                try CopiedAudioTrack(path: rendered, stream: $0.index, priming: priming, duration: map.outputDuration, muxer: muxer)
            }
        }
        let tracks = try InterleavedWriter.audioTracks(joining: zip(files, map.entries).map { file, entry in (file, entry.map, file.clipOrigin) },
                                                       settings: session.settings, muxer: muxer)
        // The audio part says how much its encoder primed, which its container does not keep.
        if part == .audio, let first = tracks.first { muxer.setMetadata([Self.primingTag: String(first.priming)]) }
        return tracks
    }

    /// The first clip's start timecode at the output's frame rate (the output starts where the
    /// clip does); nil when its video has none or its frame rate is unknown.
    private func startTimecode(of file: MediaFile) throws -> String? {
        guard let video = file.videoStream, let text = video.metadata["timecode"], let timecode = SMPTETimecode(parsing: text),
              let sourceRate = video.video?.nominalFrameRate else { return nil }
        return try timecode.converted(from: sourceRate, to: frameRate).description
    }

    /// The audio part's tag for its encoder's priming, in samples.
    static let primingTag = "slomo_priming"

    /// Encoded packets last one frame period unless the encoder said otherwise.
    private func push(_ packet: sending Packet, to queue: PipelineQueue<Packet>) throws {
        VideoEncoding.lastOneFramePeriod(packet, frameRate: frameRate)
        try queue.push(packet)
    }
}
