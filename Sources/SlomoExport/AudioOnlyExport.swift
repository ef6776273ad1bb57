import SlomoCore
import SlomoMedia

/// The audio-only mode of `ExportSession` (what `slomo stretch` runs): the first audio track of
/// an audio file or a movie, rendered through the time map and written to an audio file
/// (.wav, .flac, .m4a) or, for an input without video, to a .mov/.mp4 with audio only.
struct AudioOnlyExport {
    let session: ExportSession

    /// Output extensions that hold audio only, with the codec each implies (nil: the session's).
    static let audioContainers: [String: AudioCodec?] = ["wav": .pcm, "flac": .flac, "m4a": nil]

    /// True when the export writes audio only: an audio container, or an input without video.
    static func applies(to session: ExportSession, input: MediaFile) -> Bool {
        audioContainers.keys.contains(session.outputExtension) || input.videoStream == nil
    }

    func run(progress report: (ExportProgress) -> Void) throws -> ExportResult {
        guard session.composition.clips.count == 1, let clip = session.composition.clips.first else {
            throw ExportError(.invalidPlan, "an audio export takes one clip; this composition has \(session.composition.clips.count)")
        }
        let file = try MediaFile(path: clip.source)
        guard let stream = file.audioStreams.first else {
            throw ExportError(.noAudio, "\(clip.source): has no audio stream to stretch")
        }
        let codec = (Self.audioContainers[session.outputExtension] ?? nil) ?? session.settings.audioCodec
        let map = try clip.timeMap()
        let muxer = try Muxer(path: session.outputPath, overwrite: session.settings.overwrite)
        let track = try AudioTrackExport(path: clip.source, stream: stream.index, map: map,
                                         origin: stream.startTime ?? file.startTime ?? .zero,
                                         algorithm: session.settings.audioAlgorithm,
                                         spectralEngine: session.settings.spectralEngine, codec: codec, muxer: muxer)
        do {
            try muxer.writeHeader()
        } catch {
            muxer.abandon()
            throw error
        }
        let writer = InterleavedWriter(session: session, muxer: muxer, duration: map.outputDuration,
                                       phase: "rendering audio (\(session.settings.audioAlgorithm))")
        _ = try writer.write(video: { nil }, videoStream: 0, audio: [track], progress: report)
        return ExportResult(outputPath: session.outputPath, outputDuration: map.outputDuration,
                            videoFrames: 0, audioTracks: 1, nudgedPackets: 0,
                            warnings: [track.clippingWarning].compactMap { $0 })
    }
}
