import SlomoComposition
import SlomoCore
import SlomoMedia

/// An audio-only export to a .wav file, written by `WAVWriter` rather than FFmpeg's muxer and
/// PCM encoder: the finished blocks converted by swresample to the sample format FFmpeg's
/// encoder would be given (so the samples are the same to the bit) and appended. With a WAV
/// input (`AudioFrames`) a stretch loads none of FFmpeg's codec and container libraries, which
/// take longer to load than a short stretch takes to render.
struct WAVAudioExport {
    let session: ExportSession

    /// Renders `part` (a clip's audio through `map`) into the session's output.
    func run(_ part: AudioPart, map: TimeMap, progress report: (ExportProgress) -> Void) throws -> ExportResult {
        let depth = try AudioTrackExport.depth(asked: session.settings.audioDepth, codec: .pcm, parts: [part]) ?? .s16
        let audio = try FinishedAudio(parts: [part], settings: session.settings, codec: .pcm, depth: depth)
        let format = audio.format
        let writer = try WAVWriter(path: session.outputPath, depth: depth, sampleRate: format.sampleRate, layout: format.layout,
                                   frames: audio.frameCount, overwrite: session.settings.overwrite)
        let damage = ExportWarnings()
        var written = ExportProgress(outputTime: .zero, outputDuration: map.outputDuration, videoFrames: 0,
                                     phase: "rendering audio (\(session.settings.audioAlgorithm))")
        do {
            let convert = try Resampler(from: format, to: AudioFormat(sampleRate: format.sampleRate, layout: format.layout,
                                                                      sampleFormat: writer.sampleFormat))
            var frames = 0, throttle = ProgressThrottle()
            while let block = try audio.nextBlock() {
                try session.checkCancelled()
                let frame = try Frame(channels: block.channels, count: block.frameCount, layout: format.layout,
                                      sampleRate: format.sampleRate, pts: Int64(frames))
                try writer.write(try convert.convert(frame))
                frames += block.frameCount
                written.outputTime = min(map.outputDuration, MediaTime(value: Int64(frames), timescale: Int64(format.sampleRate)))
                throttle.offer(written, to: report)
            }
            let tail = try convert.convert(nil)
            if tail.sampleCount > 0 { try writer.write(tail) }
            for (source, found) in audio.damage { try session.found(found, in: source, keptIn: damage) }
            try writer.finish()
        } catch {
            writer.abandon()
            throw error
        }
        written.outputTime = map.outputDuration
        report(written)
        return ExportResult(outputPath: session.outputPath, outputDuration: map.outputDuration,
                            videoFrames: 0, audioTracks: 1, nudgedPackets: 0,
                            warnings: audio.warnings, damage: damage.all)
    }
}
