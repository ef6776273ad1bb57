import SlomoCore
import SlomoMedia

extension MovieFileOutput {
    /// The codecs a recording stores raw sound (PulseAudio, ALSA, a sine tone) with; compressed
    /// sound from a stream is copied as it is. PCM (lossless, cheap) fits only `.mov`; AAC-LC
    /// at 64 kbit/s a channel is what `.mp4` holds and every player plays.
    public static let recordingAudioCodecs: [AudioCodec] = [.pcm, .aac]

    /// AAC in `.mp4`/`.m4v`, PCM in `.mov`.
    static func defaultAudioCodec(for path: String) -> AudioCodec {
        isQuickTime(path) ? .pcm : .aac
    }

    /// The error for an audio codec recordings do not store sound with.
    static func unsupportedAudioCodec(_ codec: AudioCodec) -> CaptureError {
        CaptureError(.invalidLimit, SettingIssue(.audioCodec, codec.rawValue, "recordings store sound as "
                                                 + recordingAudioCodecs.map(\.rawValue).joined(separator: " or ")))
    }
}

/// How a recording stores a raw sound source: PCM in the source's own sample format, or AAC.
enum SoundStorage: Hashable, Sendable {
    /// PCM through `encoderName` (`pcm_s16le` or `pcm_f32le`).
    case pcm(encoderName: String)
    case aac

    /// How `codec` stores sound in `format`; throws when it cannot.
    init(codec: AudioCodec, source format: AudioFormat) throws(CaptureError) {
        switch codec {
        case .pcm:
            switch format.sampleFormat {
            case .int16: self = .pcm(encoderName: "pcm_s16le")
            case .float: self = .pcm(encoderName: "pcm_f32le")
            default:
                throw CaptureError(.unsupportedFormat, SettingIssue(.audioCodec, "pcm", "cannot store \(format.sampleFormat.name) "
                                                                    + "sound (s16 or flt expected): store it as AAC ({audioCodec} aac)"))
            }
        case .aac:
            self = .aac
        default:
            throw MovieFileOutput.unsupportedAudioCodec(codec)
        }
    }
}
