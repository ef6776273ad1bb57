import CFFmpeg

/// Reads the side data FFmpeg 5.1 keeps on `AVStream` (not on `codecpar`): display matrix,
/// Dolby Vision configuration, mastering display and content light metadata.
struct StreamSideData {
    let stream: UnsafeMutablePointer<AVStream>

    init(_ stream: UnsafeMutablePointer<AVStream>) { self.stream = stream }

    /// Every side data entry, for copying onto an output stream.
    var entries: [(type: AVPacketSideDataType, bytes: UnsafeRawBufferPointer)] {
        (0..<Int(stream.pointee.nb_side_data)).map { index in
            let entry = stream.pointee.side_data[index]
            return (entry.type, UnsafeRawBufferPointer(start: entry.data, count: Int(entry.size)))
        }
    }

    /// The display matrix's rotation in degrees as `av_display_rotation_get` (and so ffprobe)
    /// reports it, normalised to 0..<360: the `rotate=90` tag of older FFmpeg reads 90.
    var rotation: Int {
        guard let matrix = bytes(of: AV_PKT_DATA_DISPLAYMATRIX, atLeast: 9 * 4) else { return 0 }
        let degrees = av_display_rotation_get(matrix.assumingMemoryBound(to: Int32.self))
        guard degrees.isFinite else { return 0 }
        return ((Int(degrees.rounded()) % 360) + 360) % 360
    }

    var dolbyVision: AVDOVIDecoderConfigurationRecord? {
        bytes(of: AV_PKT_DATA_DOVI_CONF, atLeast: MemoryLayout<AVDOVIDecoderConfigurationRecord>.size)?
            .load(as: AVDOVIDecoderConfigurationRecord.self)
    }

    var masteringDisplay: MasteringDisplay? {
        bytes(of: AV_PKT_DATA_MASTERING_DISPLAY_METADATA, atLeast: MemoryLayout<AVMasteringDisplayMetadata>.size)
            .flatMap { MasteringDisplay($0.load(as: AVMasteringDisplayMetadata.self)) }
    }

    var contentLight: ContentLight? {
        guard let raw = bytes(of: AV_PKT_DATA_CONTENT_LIGHT_LEVEL,
                              atLeast: MemoryLayout<AVContentLightMetadata>.size) else { return nil }
        let metadata = raw.load(as: AVContentLightMetadata.self)
        return ContentLight(maxContentLightLevel: Int(metadata.MaxCLL), maxFrameAverageLightLevel: Int(metadata.MaxFALL))
    }

    private func bytes(of type: AVPacketSideDataType, atLeast size: Int) -> UnsafeRawPointer? {
        var found: Int = 0
        guard let data = av_stream_get_side_data(stream, type, &found), found >= size else { return nil }
        return UnsafeRawPointer(data)
    }
}
