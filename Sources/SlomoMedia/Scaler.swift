import CFFmpeg

/// Converts pictures between sizes and pixel formats (libswscale). Not thread-safe.
public final class Scaler {
    private let context: OpaquePointer
    public let outputWidth: Int
    public let outputHeight: Int
    public let outputFormat: PixelFormat

    /// How pictures are resampled.
    public enum Filter: Sendable {
        /// Bicubic: for pictures people see.
        case bicubic
        /// libswscale's fast bilinear: for pictures only measured (motion analysis), three
        /// times cheaper when shrinking a lot.
        case fastBilinear

        var flags: Int32 { self == .bicubic ? SWS_BICUBIC : SWS_FAST_BILINEAR }
    }

    public init(width: Int, height: Int, format: PixelFormat,
                toWidth outputWidth: Int, height outputHeight: Int, format outputFormat: PixelFormat,
                filter: Filter = .bicubic) throws(FFmpegError) {
        guard let context = sws_getContext(Int32(width), Int32(height), format.raw,
                                           Int32(outputWidth), Int32(outputHeight), outputFormat.raw,
                                           filter.flags, nil, nil, nil) else {
            throw FFmpegError(code: FFmpegError.invalidArgument.code,
                              operation: "scale \(width)x\(height) \(format) to \(outputWidth)x\(outputHeight) \(outputFormat)")
        }
        self.context = context
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        self.outputFormat = outputFormat
    }

    deinit { sws_freeContext(context) }

    /// A new frame holding the converted picture, with the input's timestamp.
    public func scale(_ frame: Frame) throws(FFmpegError) -> Frame {
        let output = Frame(timeBase: frame.timeBase)
        output.pointer.pointee.width = Int32(outputWidth)
        output.pointer.pointee.height = Int32(outputHeight)
        output.pointer.pointee.format = outputFormat.raw.rawValue
        try check(av_frame_get_buffer(output.pointer, 0), "allocate video frame")
        try check(av_frame_copy_props(output.pointer, frame.pointer), "copy frame properties")
        try check(sws_scale_frame(context, output.pointer, frame.pointer), "scale")
        return output
    }
}

extension Scaler {
    /// Converts between Y'CbCr and R'G'B' with the matrix and range of `color` (FFmpeg's names:
    /// `bt709`, `bt2020nc`, `smpte170m`…, `tv`/`pc`; BT.709 and limited range when untagged),
    /// instead of libswscale's default BT.601; `toRGB` says which way this scaler goes.
    public func useColorimetry(of color: ColorInfo, toRGB: Bool) {
        let space: Int32 = switch color.matrix {
        case "bt2020nc", "bt2020c": SWS_CS_BT2020
        case "smpte170m", "bt470bg": SWS_CS_ITU601
        case "smpte240m": SWS_CS_SMPTE240M
        default: SWS_CS_ITU709
        }
        let coefficients = sws_getCoefficients(space)
        let full: Int32 = color.range == "pc" ? 1 : 0
        _ = sws_setColorspaceDetails(context, coefficients, toRGB ? full : 1, coefficients, toRGB ? 1 : full, 0, 1 << 16, 1 << 16)
    }
}
