import CFFmpeg
import SlomoCore

/// Converts audio between sample formats, rates and channel layouts (libswresample). For
/// fixed conversions only: slomo's varispeed uses libsamplerate. Not thread-safe.
public final class Resampler {
    private var context: OpaquePointer?
    /// The format frames are converted into.
    public let output: AudioFormat

    /// A converter from `input` (a layout that is only a channel count is taken as FFmpeg's
    /// default layout for it) to `output`.
    public init(from input: AudioFormat, to output: AudioFormat) throws(FFmpegError) {
        let input = AudioFormat(sampleRate: input.sampleRate, layout: input.layout.specified, sampleFormat: input.sampleFormat)
        self.output = output
        let status = output.layout.withAVLayout { outLayout in
            input.layout.withAVLayout { inLayout in
                swr_alloc_set_opts2(&context, outLayout, output.sampleFormat.raw, Int32(output.sampleRate),
                                    inLayout, input.sampleFormat.raw, Int32(input.sampleRate), 0, nil)
            }
        }
        try check(status, "configure resampler \(input) → \(output)")
        try check(swr_init(context), "open resampler \(input) → \(output)")
    }

    deinit { swr_free(&context) }

    /// Converts one frame (nil flushes what the resampler holds back). The result carries the
    /// input's `pts` rescaled to 1/output sample rate, and may hold no samples.
    public func convert(_ frame: Frame?) throws(FFmpegError) -> Frame {
        let converted = Frame(timeBase: Rational(1, Int64(output.sampleRate)))
        converted.pointer.pointee.sample_rate = Int32(output.sampleRate)
        converted.pointer.pointee.format = output.sampleFormat.raw.rawValue
        output.layout.withAVLayout { _ = av_channel_layout_copy(&converted.pointer.pointee.ch_layout, $0) }
        // swresample treats a bare channel count as its default layout; say so on the frame,
        // or it reports the input as changed.
        if let frame, frame.pointer.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
            let count = frame.pointer.pointee.ch_layout.nb_channels
            av_channel_layout_uninit(&frame.pointer.pointee.ch_layout)
            av_channel_layout_default(&frame.pointer.pointee.ch_layout, count)
        }
        // swr_convert_frame sizes and allocates the output itself when it has no buffers.
        try check(swr_convert_frame(context, converted.pointer, frame?.pointer), "resample")
        if let pts = frame?.pts, let source = frame?.timeBase {
            converted.pts = av_rescale_q(pts, source.avRational, converted.timeBase.avRational)
        }
        return converted
    }
}
