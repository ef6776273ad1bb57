import CFFmpeg

/// HDR mastering metadata on decoded pictures. Encoders such as x265 put it in SEI messages, so
/// a source may carry it only there (not in the container): it is read from the first decoded
/// picture (and written onto the output stream by `Muxer.setHDRMetadata`).
extension Frame {
    /// The picture's SMPTE ST 2086 mastering display metadata, when it carries any.
    public var masteringDisplay: MasteringDisplay? {
        guard let data = av_frame_get_side_data(pointer, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA),
              Int(data.pointee.size) >= MemoryLayout<AVMasteringDisplayMetadata>.size else { return nil }
        let metadata = UnsafeRawPointer(data.pointee.data).load(as: AVMasteringDisplayMetadata.self)
        return MasteringDisplay(metadata)
    }

    /// The picture's content light level (MaxCLL, MaxFALL), when it carries any.
    public var contentLight: ContentLight? {
        guard let data = av_frame_get_side_data(pointer, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL),
              Int(data.pointee.size) >= MemoryLayout<AVContentLightMetadata>.size else { return nil }
        let metadata = UnsafeRawPointer(data.pointee.data).load(as: AVContentLightMetadata.self)
        return ContentLight(maxContentLightLevel: Int(metadata.MaxCLL), maxFrameAverageLightLevel: Int(metadata.MaxFALL))
    }
}

extension MasteringDisplay {
    init?(_ metadata: AVMasteringDisplayMetadata) {
        func value(_ r: AVRational) -> Double { r.den == 0 ? 0 : Double(r.num) / Double(r.den) }
        guard metadata.has_primaries != 0 || metadata.has_luminance != 0 else { return nil }
        let primaries = withUnsafeBytes(of: metadata.display_primaries) { buffer in
            let pairs = buffer.bindMemory(to: AVRational.self)
            return (0..<3).map { [value(pairs[2 * $0]), value(pairs[2 * $0 + 1])] }
        }
        self.init(primaries: metadata.has_primaries != 0 ? primaries : nil,
                  whitePoint: metadata.has_primaries != 0 ? [value(metadata.white_point.0), value(metadata.white_point.1)] : nil,
                  minLuminance: metadata.has_luminance != 0 ? value(metadata.min_luminance) : nil,
                  maxLuminance: metadata.has_luminance != 0 ? value(metadata.max_luminance) : nil)
    }
}
