import CFFmpeg

/// HDR signalling on output streams: mastering display and content light metadata, and Dolby
/// Vision configuration records, which the container writes as boxes.
extension Muxer {
    /// Puts mastering display and content light metadata on an output stream (written as
    /// `mdcv`/`clli` boxes by the mov muxer, where it supports them).
    public func setHDRMetadata(masteringDisplay: MasteringDisplay?, contentLight: ContentLight?, stream index: Int) throws(FFmpegError) {
        let stream = context.pointee.streams[index]!
        if let display = masteringDisplay {
            var metadata = AVMasteringDisplayMetadata()
            func chroma(_ x: Double) -> AVRational { AVRational(num: Int32((x * 50000).rounded()), den: 50000) }
            func luminance(_ x: Double) -> AVRational { AVRational(num: Int32((x * 10000).rounded()), den: 10000) }
            if let primaries = display.primaries, primaries.count == 3, let white = display.whitePoint, white.count == 2 {
                withUnsafeMutableBytes(of: &metadata.display_primaries) { buffer in
                    let pairs = buffer.bindMemory(to: AVRational.self)
                    for colour in 0..<3 {
                        pairs[2 * colour] = chroma(primaries[colour][0])
                        pairs[2 * colour + 1] = chroma(primaries[colour][1])
                    }
                }
                metadata.white_point = (chroma(white[0]), chroma(white[1]))
                metadata.has_primaries = 1
            }
            if let minimum = display.minLuminance, let maximum = display.maxLuminance {
                metadata.min_luminance = luminance(minimum)
                metadata.max_luminance = luminance(maximum)
                metadata.has_luminance = 1
            }
            try add(&metadata, type: AV_PKT_DATA_MASTERING_DISPLAY_METADATA, to: stream)
        }
        if let light = contentLight {
            var metadata = AVContentLightMetadata(MaxCLL: UInt32(light.maxContentLightLevel),
                                                  MaxFALL: UInt32(light.maxFrameAverageLightLevel))
            try add(&metadata, type: AV_PKT_DATA_CONTENT_LIGHT_LEVEL, to: stream)
        }
    }

    /// Puts a Dolby Vision configuration record on an HEVC output stream. FFmpeg 5.1 writes it
    /// (as `dvcC`/`dvvC`) only into .mp4 and only with `strict=unofficial` at `writeHeader`.
    public func setDolbyVisionConfiguration(profile: Int, level: Int, compatibility: Int, stream index: Int) throws(FFmpegError) {
        var record = AVDOVIDecoderConfigurationRecord(
            dv_version_major: 1, dv_version_minor: 0, dv_profile: UInt8(profile), dv_level: UInt8(level),
            rpu_present_flag: 1, el_present_flag: 0, bl_present_flag: 1,
            dv_bl_signal_compatibility_id: UInt8(compatibility))
        try add(&record, type: AV_PKT_DATA_DOVI_CONF, to: context.pointee.streams[index]!)
    }

    private func add<T>(_ value: inout T, type: AVPacketSideDataType, to stream: UnsafeMutablePointer<AVStream>) throws(FFmpegError) {
        let size = MemoryLayout<T>.size
        guard av_stream_get_side_data(stream, type, nil) == nil else { return }
        guard let target = av_stream_new_side_data(stream, type, size) else {
            throw FFmpegError(code: FFmpegError.outOfMemory.code, operation: "add HDR side data", path: path)
        }
        withUnsafeBytes(of: &value) { bytes in target.update(from: bytes.bindMemory(to: UInt8.self).baseAddress!, count: size) }
    }
}
