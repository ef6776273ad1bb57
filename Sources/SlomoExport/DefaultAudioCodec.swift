import SlomoCore
import SlomoMedia

extension ExportSettings {
    /// The audio codec an export uses when none is asked for: PCM for a mezzanine (a ProRes
    /// export of a source whose sound is PCM: an editor wants the sound untouched beside
    /// ProRes, not AAC), AAC otherwise. `video` is nil for passthrough.
    public static func defaultAudioCodec(video: VideoExportSettings?, composition: Composition) -> AudioCodec {
        guard video?.codec == .prores, let source = composition.clips.first?.source,
              let stream = (try? MediaFile(path: source))?.audioStreams.first,
              stream.codec.name.hasPrefix("pcm_") else { return .aac }
        return .pcm
    }
}
