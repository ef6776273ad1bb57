import CFFmpeg
import SlomoCore

extension MediaFile {
    /// Reads the facts of an opened `AVFormatContext`.
    init(context: UnsafeMutablePointer<AVFormatContext>, path: String) {
        let format = context.pointee.iformat.pointee
        let duration = context.pointee.duration
        let start = Packet.optional(context.pointee.start_time)
        let microseconds = Rational(1, Int64(AV_TIME_BASE))
        let streams = (0..<Int(context.pointee.nb_streams)).map { StreamInfo(stream: context.pointee.streams[$0]!) }
        self.init(
            path: path,
            container: Container(name: String(cString: format.name),
                                 longName: format.long_name.map { String(cString: $0) } ?? ""),
            duration: duration > 0 && duration != slomo_nopts_value() ? MediaTime(ticks: duration, timeBase: microseconds) : nil,
            startTime: start.map { MediaTime(ticks: $0, timeBase: microseconds) },
            bitRate: context.pointee.bit_rate > 0 ? Int(context.pointee.bit_rate) : nil,
            metadata: Dictionary(tags: context.pointee.metadata),
            streams: streams)
        var damage = Damage.truncation(in: context, streams: streams)
        // A truncated file's last box runs past its end too; the index says more about what is lost.
        if damage.isEmpty, String(cString: format.name).hasPrefix("mov,"), let broken = Damage.boxStructure(of: path) {
            damage.append(broken)
        }
        self.damage = damage.isEmpty ? nil : damage
    }
}

extension Dictionary where Key == String, Value == String {
    /// The entries of an `AVDictionary`.
    init(tags: OpaquePointer?) {
        self.init()
        var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while let next = av_dict_get(tags, "", entry, AV_DICT_IGNORE_SUFFIX) {
            self[String(cString: next.pointee.key)] = String(cString: next.pointee.value)
            entry = next
        }
    }
}

extension StreamInfo {
    /// Reads the facts of one `AVStream`.
    init(stream: UnsafeMutablePointer<AVStream>) {
        let parameters = stream.pointee.codecpar.pointee
        let timeBase = stream.pointee.time_base.rational
        let kind: Kind = switch parameters.codec_type {
        case AVMEDIA_TYPE_VIDEO: .video
        case AVMEDIA_TYPE_AUDIO: .audio
        case AVMEDIA_TYPE_SUBTITLE: .subtitle
        case AVMEDIA_TYPE_DATA: .data
        case AVMEDIA_TYPE_ATTACHMENT: .attachment
        default: .unknown
        }
        let start = Packet.optional(stream.pointee.start_time)
        let duration = Packet.optional(stream.pointee.duration)
        self.init(
            index: Int(stream.pointee.index),
            kind: kind,
            codec: CodecInfo(parameters: parameters),
            timeBase: timeBase,
            startTime: start.map { MediaTime(ticks: $0, timeBase: timeBase) },
            duration: duration.map { MediaTime(ticks: $0, timeBase: timeBase) },
            frameCount: stream.pointee.nb_frames > 0 ? Int(stream.pointee.nb_frames) : nil,
            bitRate: parameters.bit_rate > 0 ? Int(parameters.bit_rate) : nil,
            isAttachedPicture: stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0,
            metadata: Dictionary(tags: stream.pointee.metadata),
            video: kind == .video ? VideoInfo(stream: stream) : nil,
            audio: kind == .audio ? AudioInfo(parameters: parameters) : nil,
            frameTiming: nil)
    }
}

extension CodecInfo {
    init(parameters: AVCodecParameters) {
        let descriptor = avcodec_descriptor_get(parameters.codec_id)
        let profile = parameters.profile == FF_PROFILE_UNKNOWN ? nil
            : avcodec_profile_name(parameters.codec_id, parameters.profile).map { String(cString: $0) }
        self.init(
            name: descriptor.map { String(cString: $0.pointee.name) } ?? "unknown",
            longName: descriptor?.pointee.long_name.map { String(cString: $0) } ?? "",
            profile: profile,
            tag: CodecInfo.fourCC(parameters.codec_tag))
    }

    /// The printable four-character code of a codec tag, nil when there is none.
    static func fourCC(_ tag: UInt32) -> String? {
        guard tag != 0 else { return nil }
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: tag >> (8 * $0)) }
        guard bytes.allSatisfy({ (0x20..<0x7F).contains($0) }) else { return String(tag) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension VideoInfo {
    init(stream: UnsafeMutablePointer<AVStream>) {
        let parameters = stream.pointee.codecpar.pointee
        let format = PixelFormat(AVPixelFormat(parameters.format))
        let nominal = Rational(stream.pointee.r_frame_rate).flatMap { $0.numerator > 0 ? $0 : nil }
        let average = Rational(stream.pointee.avg_frame_rate).flatMap { $0.numerator > 0 ? $0 : nil }
        let sar = Rational(parameters.sample_aspect_ratio).flatMap { $0.numerator > 0 ? $0 : nil }
        let color = ColorInfo(parameters: parameters)
        self.init(
            width: Int(parameters.width),
            height: Int(parameters.height),
            pixelFormat: format.name,
            bitDepth: format.bitDepth,
            sampleAspectRatio: sar,
            rotation: StreamSideData(stream).rotation,
            nominalFrameRate: nominal,
            averageFrameRate: average,
            highFrameRate: VideoInfo.isHighFrameRate(average ?? nominal),
            color: color,
            hdr: HDRInfo(transfer: parameters.color_trc, sideData: StreamSideData(stream)))
    }

    /// 59.94 fps (60000/1001) and above count as high frame rate.
    static func isHighFrameRate(_ rate: Rational?) -> Bool {
        guard let rate else { return false }
        return rate >= Rational(60000, 1001)
    }
}

extension ColorInfo {
    init(parameters: AVCodecParameters) {
        func name(_ text: UnsafePointer<CChar>?, unspecified: Bool) -> String? {
            unspecified ? nil : text.map { String(cString: $0) }
        }
        self.init(
            primaries: name(av_color_primaries_name(parameters.color_primaries),
                            unspecified: parameters.color_primaries == AVCOL_PRI_UNSPECIFIED),
            transfer: name(av_color_transfer_name(parameters.color_trc),
                           unspecified: parameters.color_trc == AVCOL_TRC_UNSPECIFIED),
            matrix: name(av_color_space_name(parameters.color_space),
                         unspecified: parameters.color_space == AVCOL_SPC_UNSPECIFIED),
            range: name(av_color_range_name(parameters.color_range),
                        unspecified: parameters.color_range == AVCOL_RANGE_UNSPECIFIED))
    }
}

extension HDRInfo {
    /// The HDR signalling of a stream, nil for SDR. Dolby Vision wins over its base layer's
    /// transfer (a profile 8.4 stream is HLG underneath but plays as Dolby Vision).
    init?(transfer: AVColorTransferCharacteristic, sideData: StreamSideData) {
        let dolbyVision = sideData.dolbyVision
        let kind: Kind
        if dolbyVision != nil {
            kind = .dolbyVision
        } else if transfer == AVCOL_TRC_ARIB_STD_B67 {
            kind = .hlg
        } else if transfer == AVCOL_TRC_SMPTE2084 {
            kind = .pq
        } else {
            return nil
        }
        self.init(kind: kind,
                  dolbyVisionProfile: dolbyVision.map { Int($0.dv_profile) },
                  dolbyVisionLevel: dolbyVision.map { Int($0.dv_level) },
                  masteringDisplay: sideData.masteringDisplay,
                  contentLight: sideData.contentLight)
    }
}

extension AudioInfo {
    init(parameters: AVCodecParameters) {
        var layout = parameters.ch_layout
        var text = [CChar](repeating: 0, count: 128)
        av_channel_layout_describe(&layout, &text, text.count)
        self.init(
            sampleRate: Int(parameters.sample_rate),
            channels: Int(parameters.ch_layout.nb_channels),
            channelLayout: String(decoding: text.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self),
            sampleFormat: SampleFormat(AVSampleFormat(parameters.format)).name,
            bitsPerSample: parameters.bits_per_raw_sample > 0 ? Int(parameters.bits_per_raw_sample) : nil)
    }
}
