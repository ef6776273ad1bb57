import CFFmpeg
import SlomoCore

/// Stream details for re-encoded video: frame rate, codec tag and the side data that still
/// describes the new pictures.
extension Muxer {
    /// The kinds of stream side data that can be carried onto a re-encoded stream.
    public enum SideDataKind: Hashable, Sendable {
        /// The display matrix (rotation).
        case displayMatrix
        /// SMPTE ST 2086 mastering display colour volume.
        case masteringDisplay
        /// MaxCLL / MaxFALL.
        case contentLight

        var type: AVPacketSideDataType {
            switch self {
            case .displayMatrix: AV_PKT_DATA_DISPLAYMATRIX
            case .masteringDisplay: AV_PKT_DATA_MASTERING_DISPLAY_METADATA
            case .contentLight: AV_PKT_DATA_CONTENT_LIGHT_LEVEL
            }
        }
    }

    /// True when this container can store what `encoder` makes.
    public func canStore(_ encoder: Encoder) -> Bool {
        avformat_query_codec(context.pointee.oformat, encoder.context.pointee.codec_id, FF_COMPLIANCE_NORMAL) == 1
    }

    /// True when this container can store stream `index` of `demuxer`'s file as it is.
    public func canStore(codecOf index: Int, of demuxer: Demuxer) -> Bool {
        Self.canStore(demuxer.streamPointer(index).pointee.codecpar.pointee.codec_id, inFileNamed: path)
    }

    /// True when the container a file named `path` gets (by its extension) can store the codec
    /// FFmpeg names `codec` (`msmpeg4v3`) as it is; asked before anything is written.
    public static func canStore(codecNamed codec: String, inFileNamed path: String) -> Bool {
        guard let descriptor = avcodec_descriptor_get_by_name(codec) else { return false }
        return canStore(descriptor.pointee.id, inFileNamed: path)
    }

    /// True when the container a file named `path` gets (by its extension) can store what
    /// the encoder named `encoder` makes (`prores` cannot go in .mp4); false for an unknown
    /// encoder or extension.
    public static func canStore(encoderNamed encoder: String, inFileNamed path: String) -> Bool {
        guard let codec = avcodec_find_encoder_by_name(encoder) else { return false }
        return canStore(codec.pointee.id, inFileNamed: path)
    }

    /// What `avformat_query_codec` says, but for QuickTime: its muxer answers no for codecs it
    /// still stores under their AVI tags (FFV1), so only the MP4 family's no is believed.
    private static func canStore(_ codec: AVCodecID, inFileNamed path: String) -> Bool {
        guard let format = av_guess_format(nil, path, nil) else { return false }
        if String(cString: format.pointee.name) == "mov" { return true }
        // 1 yes, 0 no, negative when the container cannot tell (then the header will).
        return avformat_query_codec(format, codec, FF_COMPLIANCE_NORMAL) != 0
    }

    /// The container's short name (`mov`, `mp4`, `matroska`).
    public var containerName: String { String(cString: context.pointee.oformat.pointee.name) }

    /// Declares a constant frame rate (`avg_frame_rate` and `r_frame_rate`) for a stream.
    public func setFrameRate(_ rate: Rational, stream index: Int) {
        let stream = context.pointee.streams[index]!
        stream.pointee.avg_frame_rate = rate.avRational
        stream.pointee.r_frame_rate = rate.avRational
    }

    /// Sets a stream's four-character codec tag, e.g. `hvc1` for HEVC that Apple players open.
    public func setCodecTag(_ fourCC: String, stream index: Int) {
        let bytes = Array(fourCC.utf8.prefix(4))
        guard bytes.count == 4 else { return }
        let tag = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
        context.pointee.streams[index]!.pointee.codecpar.pointee.codec_tag = tag
    }

    /// Copies the chosen kinds of stream side data of input stream `input` onto output stream
    /// `index` (FFmpeg 5.1 keeps it on `AVStream`; `avcodec_parameters_copy` does not copy it).
    public func copySideData(_ kinds: Set<SideDataKind>, from input: Int, of demuxer: Demuxer, to index: Int) throws(FFmpegError) {
        let stream = context.pointee.streams[index]!
        let wanted = Set(kinds.map { $0.type.rawValue })
        for entry in StreamSideData(demuxer.streamPointer(input)).entries where wanted.contains(entry.type.rawValue) {
            guard let copy = av_stream_new_side_data(stream, entry.type, entry.bytes.count) else {
                throw FFmpegError(code: FFmpegError.outOfMemory.code, operation: "copy side data", path: path)
            }
            copy.update(from: entry.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: entry.bytes.count)
        }
    }
}

extension Encoder {
    /// True when this FFmpeg build has an encoder of that name (`libx264`, `prores_ks`, …).
    public static func isAvailable(_ name: String) -> Bool { avcodec_find_encoder_by_name(name) != nil }
}

extension FilterGraph {
    /// True when this FFmpeg build has a filter of that name (`zscale` needs zimg).
    public static func hasFilter(_ name: String) -> Bool {
        (try? OnDemandLibraries.filters().get_by_name(name)) != nil
    }
}
