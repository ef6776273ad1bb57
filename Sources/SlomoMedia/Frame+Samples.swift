import CFFmpeg
import SlomoCore

extension Frame {
    /// The samples of a 32-bit float planar (`fltp`) audio frame, one array per channel.
    public func floatChannels() -> [[Float]] {
        precondition(sampleFormat == .floatPlanar, "floatChannels() needs an fltp frame, not \(sampleFormat)")
        return (0..<channelCount).map { channel in
            let plane = UnsafeRawPointer(planeData(channel)!).assumingMemoryBound(to: Float.self)
            return Array(UnsafeBufferPointer(start: plane, count: sampleCount))
        }
    }

    /// A 32-bit float planar audio frame holding `count` samples of each channel from `offset`,
    /// with `pts` counted in 1/sample rate.
    public convenience init(channels: [[Float]], offset: Int = 0, count: Int, layout: ChannelLayout,
                            sampleRate: Int, pts: Int64) throws(FFmpegError) {
        precondition(channels.count == layout.channelCount, "\(channels.count) channels for layout \(layout)")
        self.init(timeBase: Rational(1, Int64(sampleRate)))
        pointer.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        pointer.pointee.sample_rate = Int32(sampleRate)
        pointer.pointee.nb_samples = Int32(count)
        layout.withAVLayout { _ = av_channel_layout_copy(&pointer.pointee.ch_layout, $0) }
        try check(av_frame_get_buffer(pointer, 0), "allocate audio frame")
        for (index, samples) in channels.enumerated() {
            let plane = UnsafeMutableRawPointer(planeData(index)!).assumingMemoryBound(to: Float.self)
            samples.withUnsafeBufferPointer { source in
                plane.update(from: source.baseAddress! + offset, count: count)
            }
        }
        self.pts = pts
    }
}
