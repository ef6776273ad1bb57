import SlomoMedia

/// Encodes a raw sound source for a recording, with the conversion the codec needs in front:
/// AAC takes planar float in frames of exactly its frame size (1024), which a filter graph
/// (`aformat`, `asetnsamples`) makes from whatever the source delivers. Timestamps go in and
/// come out in 1/sample rate.
///
/// AAC's packets start `initialPadding` (1024) samples before the sound sent in: that priming
/// decodes to near silence and its timestamps are right, except that they must not be
/// negative (a fragmented movie has no edit list to hide them, and FFmpeg's muxer would then
/// shift every stream, the picture's too). So sound earlier than the priming is long (the
/// first 21 ms of the recording) is trimmed (`atrim`), and the priming takes its place.
/// Writer thread only.
final class SoundEncoder {
    let encoder: Encoder
    private let conversion: FilterGraph?

    /// Throws what FFmpeg's encoder and filter graph throw when they cannot be set up.
    init(storage: SoundStorage, source format: AudioFormat, globalHeader: Bool) throws {
        switch storage {
        case .pcm(let encoderName):
            encoder = try Encoder(audio: AudioEncoderSettings(codec: encoderName, format: format), globalHeader: globalHeader)
            conversion = nil
        case .aac:
            let layout = format.layout.specified
            let planar = AudioFormat(sampleRate: format.sampleRate, layout: layout, sampleFormat: .floatPlanar)
            encoder = try Encoder(audio: AudioEncoderSettings(codec: "aac", format: planar, bitRate: 64_000 * layout.channelCount),
                                  globalHeader: globalHeader)
            conversion = try FilterGraph(audio: format, description: "atrim=start_pts=\(encoder.initialPadding),"
                                         + "aformat=sample_fmts=fltp:channel_layouts=\(layout.name),"
                                         + "asetnsamples=n=\(encoder.frameSize):p=0")
        }
    }

    /// The packets that `frame` completes; nil drains everything held back, at the end.
    func encode(_ frame: Frame?) throws(FFmpegError) -> [Packet] {
        guard let conversion else { return try encoder.encode(frame) }
        var packets: [Packet] = []
        for piece in try conversion.process(frame) { packets += try encoder.encode(piece) }
        if frame == nil { packets += try encoder.encode(nil) }
        return packets
    }
}
