import CFFmpeg
import SlomoCore

extension PixelBuffer.Layout {
    /// The FFmpeg pixel format with the same memory layout.
    public var pixelFormat: PixelFormat {
        switch self {
        case .rgba: PixelFormat(AV_PIX_FMT_RGBA)
        case .bgra: PixelFormat(AV_PIX_FMT_BGRA)
        case .yuv420p: .yuv420p
        }
    }
}

extension Frame {
    /// A video frame holding a copy of `buffer`'s pixels, with `pts` in `timeBase`. A
    /// `yuv420p` buffer is tagged BT.709 limited range, as `PixelBuffer` defines it.
    public convenience init(copying buffer: PixelBuffer, pts: Int64, timeBase: Rational) throws(FFmpegError) {
        self.init(timeBase: timeBase)
        pointer.pointee.width = Int32(buffer.width)
        pointer.pointee.height = Int32(buffer.height)
        pointer.pointee.format = buffer.layout.pixelFormat.raw.rawValue
        try check(av_frame_get_buffer(pointer, 0), "allocate video frame")
        for (index, plane) in buffer.planes.enumerated() {
            let rowBytes = buffer.bytesPerRow(plane: index), target = planeData(index)!, stride = lineSize(plane: index)
            plane.withUnsafeBufferPointer { source in
                for row in 0..<buffer.rows(plane: index) {
                    (target + row * stride).update(from: source.baseAddress! + row * rowBytes, count: rowBytes)
                }
            }
        }
        if buffer.layout == .yuv420p {
            color = ColorInfo.named(primaries: "bt709", transfer: "bt709", matrix: "bt709", range: "tv")
        }
        self.pts = pts
    }
}
