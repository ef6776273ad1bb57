import SlomoCore

/// How an `ExportSession` writes its output.
public struct ExportSettings: Sendable, Hashable {
    /// Passthrough copies video packets and rewrites their timestamps; constant frame rate
    /// renders every output frame on a fixed grid and re-encodes.
    public enum Mode: Sendable, Hashable {
        case passthrough
        case constantFrameRate(Rational)
    }

    public var mode: Mode
    /// The algorithm for sections that do not name their own.
    public var audioAlgorithm: AudioAlgorithm
    /// The engine of spectral audio (slomo's phase-gradient engine, or Rubber Band R3).
    public var spectralEngine: SpectralEngine
    /// The codec rendered audio is encoded with.
    public var audioCodec: AudioCodec
    /// Replace an existing output file.
    public var overwrite: Bool

    public init(mode: Mode = .passthrough, audioAlgorithm: AudioAlgorithm = .spectral,
                spectralEngine: SpectralEngine = .defaultEngine,
                audioCodec: AudioCodec = .aac, overwrite: Bool = false) {
        self.mode = mode
        self.audioAlgorithm = audioAlgorithm
        self.spectralEngine = spectralEngine
        self.audioCodec = audioCodec
        self.overwrite = overwrite
    }
}

/// The codec rendered audio is encoded with.
public enum AudioCodec: String, CaseIterable, Sendable, Hashable, Codable {
    /// AAC-LC at 64 kb/s per channel (128 kb/s stereo): small, plays everywhere.
    case aac
    /// Apple Lossless: exact, in .mov/.mp4/.m4a.
    case alac
    /// 16-bit PCM: exact and uncompressed, in .mov, .wav or .mkv (not .mp4).
    case pcm
    /// FLAC: lossless and compressed, in .flac, .mkv or .mp4.
    case flac

    /// The FFmpeg encoder.
    var encoderName: String {
        switch self {
        case .aac: "aac"
        case .alac: "alac"
        case .pcm: "pcm_s16le"
        case .flac: "flac"
        }
    }

    /// Bit rate for a channel count, for lossy codecs.
    func bitRate(channels: Int) -> Int? { self == .aac ? 64_000 * max(channels, 1) : nil }
}
