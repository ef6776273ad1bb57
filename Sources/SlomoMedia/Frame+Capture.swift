import CFFmpeg

extension Frame {
    /// Asks the encoder to make this picture a keyframe (`true`) or to choose itself (`false`).
    /// Decoders of raw video mark every picture as an intra picture, which libx264 would obey,
    /// making every frame a keyframe: clear it before encoding such frames.
    public func requestKeyframe(_ keyframe: Bool) {
        pointer.pointee.pict_type = keyframe ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
    }

    /// Bytes the picture's or samples' data take (the sum of its buffers), e.g. to size a queue.
    public var dataSize: Int {
        withUnsafeBytes(of: pointer.pointee.buf) { raw in
            raw.bindMemory(to: UnsafeMutablePointer<AVBufferRef>?.self).reduce(0) { $0 + ($1.map { Int($0.pointee.size) } ?? 0) }
        }
    }
}
