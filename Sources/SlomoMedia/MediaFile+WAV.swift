import CFFmpeg
import SlomoCore

extension MediaFile {
    /// What FFmpeg's demuxer says about `wav`, field for field, without FFmpeg: its container
    /// duration is the samples' rounded to microseconds, its bit rate the file's size over that
    /// duration, its stream's the header's, the layout a speaker mask's or a channel count,
    /// and 24- and 32-bit integers decode to `s32` keeping their bits. Unlike FFmpeg, it says
    /// when the file cuts its samples short (`damage`); its duration is then FFmpeg's estimate
    /// from the bytes there are.
    init(wav: WAVFile) {
        let timeBase = Rational(1, Int64(wav.sampleRate))
        let frames = wav.describedFrameCount
        let micros = (frames * 1_000_000 + Int64(wav.sampleRate / 2)) / Int64(wav.sampleRate)
        let stream = StreamInfo(
            index: 0,
            kind: .audio,
            codec: CodecInfo(name: wav.coding.rawValue, longName: wav.coding.longName, profile: nil,
                             tag: CodecInfo.fourCC(wav.tag)),
            timeBase: timeBase,
            startTime: nil,
            duration: MediaTime(ticks: frames, timeBase: timeBase),
            frameCount: nil,
            bitRate: wav.blockAlign * wav.sampleRate * 8,
            isAttachedPicture: false,
            metadata: [:],
            video: nil,
            audio: AudioInfo(sampleRate: wav.sampleRate, channels: wav.channelCount,
                             channelLayout: wav.channelLayout.name, sampleFormat: wav.coding.decodedFormat.name,
                             bitsPerSample: wav.coding.keptBits),
            frameTiming: nil)
        self.init(path: wav.path,
                  container: Container(name: "wav", longName: "WAV / WAVE (Waveform Audio)"),
                  duration: micros > 0 ? MediaTime(ticks: micros, timeBase: Rational(1, 1_000_000)) : nil,
                  startTime: nil,
                  bitRate: micros > 0 ? Int(Double(wav.fileSize) * 8 * 1_000_000 / Double(micros)) : nil,
                  metadata: wav.tags,
                  streams: [stream])
        if let cut = wav.truncation { damage = [cut] }
    }
}

extension WAVFile {
    /// The stream's length in frames as FFmpeg gives it: the data chunk's, or for a file cut
    /// short, the bytes after the header over the bytes a frame takes, rounded to nearest
    /// (its estimate from the bit rate).
    var describedFrameCount: Int64 {
        guard storedFrameCount < frameCount else { return frameCount }
        let bytes = fileSize - dataOffset, frame = Int64(blockAlign)
        return (2 * bytes + frame) / (2 * frame)
    }

    /// The damage of a data chunk the file cuts short: where the audio ends, and how much of
    /// what the chunk declares is missing; nil when the file holds it all.
    var truncation: Damage? {
        guard storedFrameCount < frameCount else { return nil }
        let timeBase = Rational(1, Int64(sampleRate))
        let readable = MediaTime(ticks: storedFrameCount, timeBase: timeBase)
        let declared = MediaTime(ticks: frameCount, timeBase: timeBase)
        let missing = Int(frameCount - storedFrameCount)
        return Damage(kind: .truncated, stream: 0, readableUntil: readable, packets: missing,
                      message: "audio ends at \(readable.formattedSeconds(fractionDigits: 2)) s of "
                        + "\(declared.formattedSeconds(fractionDigits: 2)) s, \(missing) sample frames missing (file truncated?)")
    }
}

extension WAVFile {
    /// The channels as FFmpeg's decoder gives them: the speakers of an extensible header's
    /// mask, else only a count.
    var channelLayout: ChannelLayout {
        channelMask.map { ChannelLayout(mask: $0) } ?? ChannelLayout(unspecifiedCount: channelCount)
    }
}

extension WAVFile.Coding {
    /// FFmpeg's long name of the codec.
    var longName: String {
        switch self {
        case .u8: "PCM unsigned 8-bit"
        case .s16: "PCM signed 16-bit little-endian"
        case .s24: "PCM signed 24-bit little-endian"
        case .s32: "PCM signed 32-bit little-endian"
        case .f32: "PCM 32-bit floating point little-endian"
        case .f64: "PCM 64-bit floating point little-endian"
        }
    }

    /// The sample format FFmpeg's decoder gives (channels interleaved; 24 bits in the high bits of 32).
    var decodedFormat: SampleFormat {
        switch self {
        case .u8: SampleFormat(AV_SAMPLE_FMT_U8)
        case .s16: .int16
        case .s24, .s32: .int32
        case .f32: .float
        case .f64: SampleFormat(AV_SAMPLE_FMT_DBL)
        }
    }

    /// The bits FFmpeg's decoder says it keeps (`bits_per_raw_sample`): set for the codings it
    /// decodes to 32-bit integers, nil for the others.
    var keptBits: Int? {
        switch self {
        case .s24: 24
        case .s32: 32
        default: nil
        }
    }
}
