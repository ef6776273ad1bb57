import SlomoCore
import SlomoMedia

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
    public var audioAlgorithm: TimePitchAlgorithm
    /// The engine of spectral audio (slomo's phase-gradient engine, or Rubber Band R3).
    public var spectralEngine: SpectralEngine
    /// The codec rendered audio is encoded with. An audio file format that cannot hold the
    /// default, AAC (.wav, .mp3, …), uses its own codec instead (`AudioOutputFormat`).
    public var audioCodec: AudioCodec
    /// The sample format of a lossless audio codec (PCM, FLAC, ALAC); nil keeps the source's
    /// (a 24-bit recording stays 24-bit), 16 bits when it has none. Lossy codecs take none.
    public var audioDepth: SampleDepth?
    /// Gain applied to the rendered audio, in dB (0: none).
    public var gain: Double
    /// The pitch of the rendered audio, in semitones (0: the source's; 3 raises it a minor
    /// third, -12 lowers it an octave), independent of the rate; −24 … 24. Varispeed cannot:
    /// its pitch follows its rate.
    public var pitch: Double
    /// Keep rendered peaks under −1 dBTP in integer and lossy outputs with a true-peak limiter
    /// (`TruePeakLimiter`), saying how much it lowered them; off, they clip and a warning says
    /// so. Float outputs are never limited.
    public var limiter: Bool
    /// Replace an existing output file.
    public var overwrite: Bool
    /// Refuse a damaged source (`MediaFile.damage`: a truncated file; or media data that does
    /// not decode cleanly) instead of exporting what can be read of it.
    public var strict: Bool
    /// Decode the video that passthrough copies, to find damage in the media data (a flipped
    /// byte, a zeroed chunk) that only decoding sees. Off by default: passthrough then checks
    /// each packet's structure (`StructureCheck`) at the speed of a copy. The video is still
    /// copied bit for bit; the cost is the decoding time, spread over one decoder per core (up
    /// to four). A constant-frame-rate export reports what its own decoding meets either way;
    /// verifying makes its decoders (one a core for runs between keyframes, as memory allows)
    /// run one thread each, since frame threads can miss concealed pictures.
    public var verify: Bool
    /// A constant-frame-rate export split into chunks: this run makes one piece, or joins the
    /// pieces (`ExportPart`); nil for the whole export in one pass.
    public var part: ExportPart?

    public init(mode: Mode = .passthrough, audioAlgorithm: TimePitchAlgorithm = .spectral,
                spectralEngine: SpectralEngine = .defaultEngine,
                audioCodec: AudioCodec = .aac, audioDepth: SampleDepth? = nil, gain: Double = 0, pitch: Double = 0, limiter: Bool = true,
                overwrite: Bool = false,
                strict: Bool = false, verify: Bool = false, part: ExportPart? = nil) {
        self.mode = mode
        self.audioAlgorithm = audioAlgorithm
        self.spectralEngine = spectralEngine
        self.audioCodec = audioCodec
        self.audioDepth = audioDepth
        self.gain = gain
        self.limiter = limiter
        self.pitch = pitch
        self.overwrite = overwrite
        self.strict = strict
        self.verify = verify
        self.part = part
    }
}
