/// The audio codecs slomo encodes, by the names every command uses (`--audio-codec` in
/// `retime`, `export`, `stretch` and `capture`), with their FFmpeg encoders. Which file
/// formats hold which codec is SlomoExport's `AudioOutputFormat` table; recordings store raw
/// sound as PCM or AAC.
public enum AudioCodec: String, CaseIterable, Sendable, Hashable, Codable {
    /// AAC-LC at 64 kb/s per channel (128 kb/s stereo): small, plays everywhere.
    case aac
    /// Apple Lossless: exact, in .m4a, .mov, .mp4, .mkv.
    case alac
    /// 16-bit PCM: exact and uncompressed, in .wav, .mov, .mkv (not .mp4).
    case pcm
    /// FLAC: lossless and compressed, in .flac, .mkv.
    case flac
    /// MP3 (LAME) at 96 kb/s per channel (192 kb/s stereo), at most 48 kHz.
    case mp3
    /// Opus (libopus) at 64 kb/s per channel: 48, 24, 16, 12 or 8 kHz only, so other rates are
    /// resampled (44.1 kHz becomes 48 kHz).
    case opus
    /// Vorbis (libvorbis) at an average 64 kb/s per channel.
    case vorbis

    /// The FFmpeg encoder.
    public var encoderName: String {
        switch self {
        case .aac: "aac"
        case .alac: "alac"
        case .pcm: "pcm_s16le"
        case .flac: "flac"
        case .mp3: "libmp3lame"
        case .opus: "libopus"
        case .vorbis: "libvorbis"
        }
    }

    /// Bit rate for a channel count, for lossy codecs.
    public func bitRate(channels: Int) -> Int? {
        switch self {
        case .aac, .opus, .vorbis: 64_000 * max(channels, 1)
        case .mp3: 96_000 * max(channels, 1)
        case .alac, .pcm, .flac: nil
        }
    }

    /// The sample rate audio at `rate` is encoded at: `rate` when the encoder takes it, else the
    /// lowest rate it takes above `rate` (the highest below when there is none), so nothing
    /// audible is lost. PCM takes every rate (without asking FFmpeg's codec library, which a
    /// WAV export does not otherwise load).
    public func sampleRate(for rate: Int) -> Int {
        guard self != .pcm, let rates = Encoder.supportedSampleRates(of: encoderName), !rates.isEmpty, !rates.contains(rate) else { return rate }
        return rates.filter { $0 > rate }.min() ?? rates.max()!
    }

    /// The encoder's input format at `depth` (`encoder(depth:)`): what the codec takes, at
    /// `source`'s rate and layout.
    public func encoderFormat(_ source: AudioFormat, depth: SampleDepth?) -> AudioFormat {
        var format = source
        format.sampleFormat = encoder(depth: depth).sampleFormat
        return format
    }
}
