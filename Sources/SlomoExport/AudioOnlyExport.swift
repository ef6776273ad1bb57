import SlomoComposition
import SlomoCore
import SlomoMedia

/// The audio-only mode of `ExportSession` (what `slomo stretch` runs): the first audio track of
/// an audio file or a movie, rendered through the time map and written to an audio file
/// (`AudioOutputFormat`: .wav, .flac, .m4a, .mp3, .opus, .ogg) or, for an input without
/// video, to a .mov, .mp4 or .mkv with audio only. A .wav is written by `WAVAudioExport`.
struct AudioOnlyExport {
    let session: ExportSession

    /// True when the export writes audio only: an audio file format, or an input without video.
    static func applies(to session: ExportSession, input: MediaFile) -> Bool {
        AudioOutputFormat(path: session.outputPath)?.isMovie == false || input.videoStream == nil
    }

    /// The session's codec when the format holds it, else the format's default when the
    /// session's is `ExportSettings`' default (AAC, which a caller may not have chosen);
    /// throws for any other contradiction, or for a format that is not in the table.
    var codec: AudioCodec {
        get throws {
            let format = try AudioOutputFormat.of(session.outputPath)
            let asked = session.settings.audioCodec
            let givesWay = asked == ExportSettings().audioCodec && !format.codecs.contains(asked)
            return try format.codec(givesWay ? nil : asked, for: session.outputPath)
        }
    }

    func run(progress report: (ExportProgress) -> Void) throws -> ExportResult {
        guard session.composition.clips.count == 1, let clip = session.composition.clips.first else {
            throw ExportError(.invalidPlan, "an audio export takes one clip; this composition has \(session.composition.clips.count)")
        }
        let file = try MediaFile(path: clip.source)
        guard let stream = file.audioStreams.first else {
            throw ExportError(.noAudio, "\(clip.source): has no audio stream to stretch")
        }
        let codec = try self.codec
        let map = try clip.timeMap()
        let part = AudioPart(path: clip.source, stream: stream.index, map: map, origin: stream.startTime ?? file.startTime ?? .zero)
        if codec == .pcm, AudioOutputFormat(path: session.outputPath)?.fileExtension == "wav" {
            return try WAVAudioExport(session: session).run(part, map: map, progress: report)
        }
        let muxer = try Muxer(path: session.outputPath, overwrite: session.settings.overwrite)
        let track = try AudioTrackExport(parts: [part], settings: session.settings, codec: codec, muxer: muxer)
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
                            warnings: track.warnings, damage: writer.damage.all)
    }
}
