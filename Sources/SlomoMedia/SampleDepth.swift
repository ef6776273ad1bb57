/// The sample format rendered audio is written in by a lossless codec: 16-, 24- or 32-bit
/// integers or 32-bit floats. slomo renders in 32-bit float, which holds 16- and 24-bit
/// samples exactly, so a 24-bit source played at rate 1 comes out bit for bit.
public enum SampleDepth: String, CaseIterable, Sendable, Hashable, Codable {
    case s16, s24, s32, f32
}

extension AudioCodec {
    /// True for codecs that keep every sample: PCM, FLAC, ALAC.
    public var isLossless: Bool { !depths.isEmpty }

    /// The depths the codec writes, empty for lossy codecs (which take floats and choose
    /// their own precision): PCM every one; FLAC and ALAC 16 and 24 bits.
    public var depths: [SampleDepth] {
        switch self {
        case .pcm: SampleDepth.allCases
        case .flac, .alac: [.s16, .s24]
        case .aac, .mp3, .opus, .vorbis: []
        }
    }

    /// The depth closest to `depth` that the codec writes without losing bits where it can:
    /// `depth` itself, else 24 bits for 32-bit sources (FLAC, ALAC); nil for lossy codecs.
    public func nearestDepth(to depth: SampleDepth) -> SampleDepth? {
        if depths.contains(depth) { return depth }
        return depths.last
    }

    /// The FFmpeg encoder, its input sample format and the bits it keeps, at `depth` (nil:
    /// 16 bits for lossless codecs; ignored by lossy ones).
    public func encoder(depth: SampleDepth?) -> (name: String, sampleFormat: SampleFormat, bitsPerRawSample: Int?) {
        let depth = depth ?? .s16
        switch self {
        case .pcm:
            switch depth {
            case .s16: return ("pcm_s16le", .int16, nil)
            case .s24: return ("pcm_s24le", .int32, 24)
            case .s32: return ("pcm_s32le", .int32, nil)
            case .f32: return ("pcm_f32le", .float, nil)
            }
        case .flac: return depth == .s16 ? ("flac", .int16, nil) : ("flac", .int32, 24)
        case .alac: return depth == .s16 ? ("alac", .int16Planar, nil) : ("alac", .int32Planar, 24)
        case .aac, .mp3, .vorbis: return (encoderName, .floatPlanar, nil)
        case .opus: return (encoderName, .float, nil)
        }
    }
}

extension StreamInfo {
    /// The depth of a lossless audio stream (PCM, FLAC, ALAC, WavPack), nil for lossy or
    /// unknown ones: what a lossless output keeps by default.
    public var losslessDepth: SampleDepth? {
        guard kind == .audio, let audio else { return nil }
        let name = codec.name
        if name.hasPrefix("pcm_f") { return .f32 }
        if name.hasPrefix("pcm_s16") || name.hasPrefix("pcm_u16") { return .s16 }
        if name.hasPrefix("pcm_s24") { return .s24 }
        if name.hasPrefix("pcm_s32") { return .s32 }
        guard ["flac", "alac", "wavpack"].contains(name) else { return nil }
        if audio.sampleFormat.hasPrefix("flt") { return .f32 }
        guard let bits = audio.bitsPerSample else { return audio.sampleFormat.hasPrefix("s32") ? .s24 : .s16 }
        return bits <= 16 ? .s16 : bits <= 24 ? .s24 : .s32
    }
}
