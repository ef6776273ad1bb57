import CFFmpeg

/// Skipping pictures nobody needs (`AVCodecContext.skip_frame`).
extension Decoder {
    /// Which pictures a decoder leaves undecoded among the packets sent next.
    public enum PictureSkipping: Sendable {
        /// Every picture is decoded.
        case none
        /// Pictures no other picture references (such as most B-frames): later pictures stay
        /// correct.
        case nonReference
        /// B pictures too, references or not: for a reference picture that `H264SkipPlan` found
        /// no decoded picture needs.
        case bidirectional
    }

    /// What the decoder skips (`AVCodecContext.skip_frame`); packets sent meanwhile produce no
    /// picture when they hold a skipped one. The setting applies to packets sent after it
    /// changes, also with frame threading.
    public var skipping: PictureSkipping {
        get {
            switch context.pointee.skip_frame {
            case AVDISCARD_NONREF: .nonReference
            case AVDISCARD_BIDIR: .bidirectional
            default: .none
            }
        }
        set {
            context.pointee.skip_frame = switch newValue {
            case .none: AVDISCARD_DEFAULT
            case .nonReference: AVDISCARD_NONREF
            case .bidirectional: AVDISCARD_BIDIR
            }
        }
    }

    /// Whether the decoder skips its loop filter (`skip_loop_filter`): pictures come out a
    /// little blockier and a sixth sooner, which suits decoding that checks or measures
    /// pictures rather than shows them.
    public var skipsLoopFilter: Bool {
        get { context.pointee.skip_loop_filter == AVDISCARD_ALL }
        set { context.pointee.skip_loop_filter = newValue ? AVDISCARD_ALL : AVDISCARD_DEFAULT }
    }
}

extension Decoder {
    /// True for codecs whose every frame is a keyframe (ProRes, FFV1, MJPEG…): packets whose
    /// picture is not needed need not be sent at all.
    public var isIntraOnly: Bool {
        guard let descriptor = avcodec_descriptor_get(context.pointee.codec_id) else { return false }
        return descriptor.pointee.props & AV_CODEC_PROP_INTRA_ONLY != 0
    }
}
