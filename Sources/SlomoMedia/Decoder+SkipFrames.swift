import CFFmpeg

/// Skipping pictures nobody needs (`AVCodecContext.skip_frame`).
extension Decoder {
    /// When true, the decoder does not decode frames that no other frame references (such as
    /// non-reference B-frames): packets sent meanwhile produce no picture when they hold one.
    /// Reference frames are always decoded, so later pictures stay correct. The setting applies
    /// to packets sent after it changes, also with frame threading.
    public var skipsNonReferenceFrames: Bool {
        get { context.pointee.skip_frame == AVDISCARD_NONREF }
        set { context.pointee.skip_frame = newValue ? AVDISCARD_NONREF : AVDISCARD_DEFAULT }
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
