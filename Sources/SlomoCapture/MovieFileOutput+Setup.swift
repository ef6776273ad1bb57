import Foundation
import SlomoConcurrency
import SlomoCore
import SlomoMedia

extension MovieFileOutput {
    /// Checks the settings and the target, creates the file and its tracks, writes the header
    /// (session thread, before capture starts), and returns the writer that owns them, for the
    /// writer thread to run. `sessionTags` are tags the session adds (the cameras' controls);
    /// the settings' own tags win over them.
    func prepare(sources: [CaptureSource], sessionTags: [String: String] = [:]) throws(CaptureError) -> sending RecordingWriter {
        try checkSettings()
        let audioCodec = settings.audioCodec ?? Self.defaultAudioCodec(for: settings.path)
        if audioCodec == .pcm && !Self.isQuickTime(settings.path) && sources.contains(where: { $0.isAudio && $0.isRaw }) {
            throw CaptureError(.outputProblem, SettingIssue(.audioCodec, "pcm", "PCM sound only fits in .mov: name the file .mov "
                                                              + "or store the sound as AAC ({audioCodec} aac)", subject: settings.path))
        }
        let muxer: Muxer
        do { muxer = try Muxer(recordingTo: settings.path, overwrite: settings.overwrite) } catch {
            throw CaptureError(.outputProblem, writing: error)
        }
        var queueCapacity = 0
        var tracks: [Int: RecordingTrack] = [:]
        do {
            for source in sources {
                let (track, capacity) = try makeTrack(for: source, audioCodec: audioCodec, muxer: muxer)
                tracks[source.index] = track
                queueCapacity += capacity
            }
            let tags = Self.initialTags(from: settings.metadata.merging(sessionTags) { own, _ in own })
            muxer.setMetadata(tags)
            try muxer.writeHeader(options: Self.headerOptions)
            try muxer.reserveHeaderSpace(settings.headerReserveBytes)
            shared.withLock {
                $0.hasVideo = sources.contains { !$0.isAudio }
                $0.copiedVideoInputs = Set(sources.filter { !$0.isAudio && !$0.isRaw }.map(\.index))
                $0.tags = tags
                $0.headerTagBytes = Self.tagBytes(tags)
            }
        } catch {
            muxer.abandon()
            try? FileSystem.removeFile(at: settings.path)
            if let error = error as? CaptureError { throw error }
            throw CaptureError(.outputProblem, "\(settings.path): cannot start the recording (\(error))")
        }
        // The count bound comes from the inputs; the bytes bound holds for all of them together,
        // so raw frames cannot spread into the room counted for another input's packets.
        let queue = PipelineQueue<CapturedSample>(capacity: queueCapacity, whenFull: .dropNewest,
                                                  bytes: settings.queueBudgetBytes, cost: \.size)
        shared.withLock {
            $0.bytesOnDisk = muxer.bytesWritten
            $0.queue = queue
        }
        if let minimum = limits.minimumFreeSpace, let free = try? FileSystem.freeSpace(near: settings.path),
           limits.reached(by: RecordingLimits.Measurement(freeSpace: free)) == .minimumFreeSpace {
            shared.withLock { $0.stopReason = .minimumFreeSpace }
            muxer.abandon()
            try? FileSystem.removeFile(at: settings.path)
            throw CaptureError(.noDiskSpace, SettingIssue(.minimumFreeSpace, nil, "only \(Self.megabytes(free)) free, less than the "
                                                         + "{minimumFreeSpace} of \(Self.megabytes(minimum))", subject: settings.path))
        }
        return RecordingWriter(output: self, queue: queue, muxer: muxer, tracks: tracks)
    }

    /// The track that records `source`, and how many of its samples the queue holds: raw
    /// video is encoded, raw sound is encoded as `audioCodec`, compressed data is copied.
    /// Throws a `CaptureError` for a source whose format is unknown or that `audioCodec` cannot
    /// store, an `FFmpegError` when FFmpeg cannot set the track up.
    private func makeTrack(for source: CaptureSource, audioCodec: AudioCodec,
                           muxer: Muxer) throws -> (track: RecordingTrack, queueCapacity: Int) {
        guard source.isRaw else { return (try RecordingTrack(copying: source, into: muxer), 512) }
        if source.isAudio {
            guard let format = source.audioFormat else {
                throw CaptureError(.unsupportedFormat, "\(source.input.label): its sound format is unknown (no sample rate or layout)")
            }
            let storage = try SoundStorage(codec: audioCodec, source: format)
            return (try RecordingTrack(encodingSound: storage, format: format, into: muxer), 512)
        }
        guard let video = source.stream.video else {
            throw CaptureError(.unsupportedFormat, "\(source.input.label): its picture size is unknown")
        }
        let scale = settings.scale ?? 1
        let width = settings.size?.width ?? max(2, Int((Double(video.width) * scale / 2).rounded()) * 2)
        let height = settings.size?.height ?? max(2, Int((Double(video.height) * scale / 2).rounded()) * 2)
        let rate = source.frameRate ?? Rational(30)
        let gop = max(1, Int(rate.doubleValue * settings.fragmentInterval.doubleSeconds * 4))
        let encoderSettings = VideoEncoderSettings(
            codec: settings.videoCodec, width: width, height: height, pixelFormat: settings.videoPixelFormat,
            timeBase: RecordingTrack.videoTimeBase, frameRate: rate, gopSize: gop, options: settings.videoCodecOptions)
        let track = try RecordingTrack(encodingVideo: encoderSettings, into: muxer)
        let frameBytes = max(1, video.width * video.height * 2)
        return (track, min(512, max(8, settings.queueBudgetBytes / frameBytes)))
    }

    private static func megabytes(_ bytes: Int64) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
}
