import CFFmpeg
import SlomoCore

/// Video pictures: allocation, colour tags and blending, for constant-frame-rate rendering.
extension Frame {
    /// A new picture of the given size and format with its own (uninitialised) buffers.
    public static func video(width: Int, height: Int, format: PixelFormat, timeBase: Rational) throws(FFmpegError) -> Frame {
        let frame = Frame(timeBase: timeBase)
        frame.pointer.pointee.width = Int32(width)
        frame.pointer.pointee.height = Int32(height)
        frame.pointer.pointee.format = format.raw.rawValue
        try check(av_frame_get_buffer(frame.pointer, 0), "allocate video frame")
        return frame
    }

    /// The picture's colour description (FFmpeg's names; nil for unspecified). Encoders such as
    /// `prores_ks` take their colour tags from each frame, so set it on frames sent to them.
    public var color: ColorInfo {
        get {
            let frame = pointer.pointee
            func name(_ text: UnsafePointer<CChar>?, unspecified: Bool) -> String? {
                unspecified ? nil : text.map { String(cString: $0) }
            }
            return ColorInfo(
                primaries: name(av_color_primaries_name(frame.color_primaries), unspecified: frame.color_primaries == AVCOL_PRI_UNSPECIFIED),
                transfer: name(av_color_transfer_name(frame.color_trc), unspecified: frame.color_trc == AVCOL_TRC_UNSPECIFIED),
                matrix: name(av_color_space_name(frame.colorspace), unspecified: frame.colorspace == AVCOL_SPC_UNSPECIFIED),
                range: name(av_color_range_name(frame.color_range), unspecified: frame.color_range == AVCOL_RANGE_UNSPECIFIED))
        }
        set {
            if let value = newValue.primaries.map({ av_color_primaries_from_name($0) }), value >= 0 {
                pointer.pointee.color_primaries = AVColorPrimaries(UInt32(value))
            }
            if let value = newValue.transfer.map({ av_color_transfer_from_name($0) }), value >= 0 {
                pointer.pointee.color_trc = AVColorTransferCharacteristic(UInt32(value))
            }
            if let value = newValue.matrix.map({ av_color_space_from_name($0) }), value >= 0 {
                pointer.pointee.colorspace = AVColorSpace(UInt32(value))
            }
            if let value = newValue.range.map({ av_color_range_from_name($0) }), value >= 0 {
                pointer.pointee.color_range = AVColorRange(UInt32(value))
            }
        }
    }

    /// True when `blended(with:weight:)` can mix pictures of this format: planar or packed
    /// formats of 8-bit components, or of 9- to 16-bit components in native-endian 16-bit words.
    public var isBlendable: Bool {
        guard let descriptor = av_pix_fmt_desc_get(AVPixelFormat(pointer.pointee.format)) else { return false }
        let flags = descriptor.pointee.flags
        let unsupported = UInt64(AV_PIX_FMT_FLAG_PAL) | UInt64(AV_PIX_FMT_FLAG_BITSTREAM) | UInt64(AV_PIX_FMT_FLAG_HWACCEL)
            | UInt64(AV_PIX_FMT_FLAG_FLOAT) | UInt64(AV_PIX_FMT_FLAG_BE)
        return flags & unsupported == 0 && descriptor.pointee.comp.0.depth <= 16
    }

    /// A new picture `(1 − weight)·self + weight·other`, component by component, rounded; the
    /// properties (timestamps, colour) are this frame's. Both pictures must have the same size
    /// and format (`isBlendable`). `weight` is quantised to 1/256. Throws `MediaError`
    /// (`.invalidArgument`) for pictures that do not match or cannot be blended, `FFmpegError`
    /// when FFmpeg fails.
    public func blended(with other: Frame, weight: Double) throws -> Frame {
        func refusal(_ reason: String) -> MediaError {
            MediaError(.invalidArgument, detail: "blend \(width)x\(height) \(pixelFormat) with "
                       + "\(other.width)x\(other.height) \(other.pixelFormat): \(reason)")
        }
        guard width == other.width, height == other.height, pointer.pointee.format == other.pointer.pointee.format else {
            throw refusal("the pictures differ in size or pixel format")
        }
        guard isBlendable, let descriptor = av_pix_fmt_desc_get(AVPixelFormat(pointer.pointee.format)) else {
            throw refusal("\(pixelFormat) pictures cannot be blended")
        }
        let output = try Frame.video(width: width, height: height, format: pixelFormat, timeBase: timeBase)
        try check(av_frame_copy_props(output.pointer, pointer), "copy frame properties")
        let b = UInt32(max(0, min(256, (weight * 256).rounded())))
        let a = 256 - b
        let wide = descriptor.pointee.comp.0.depth > 8
        let planes = Int(av_pix_fmt_count_planes(AVPixelFormat(pointer.pointee.format)))
        for plane in 0..<planes {
            let rowBytes = Int(av_image_get_linesize(AVPixelFormat(pointer.pointee.format), Int32(width), Int32(plane)))
            let chroma = plane == 1 || plane == 2
            let shift = chroma ? Int(descriptor.pointee.log2_chroma_h) : 0
            let rows = (height + (1 << shift) - 1) >> shift
            guard let first = planeData(plane), let second = other.planeData(plane), let target = output.planeData(plane) else { continue }
            let (l1, l2, l3) = (lineSize(plane: plane), other.lineSize(plane: plane), output.lineSize(plane: plane))
            for row in 0..<rows {
                let p = first + row * l1, q = second + row * l2, r = target + row * l3
                if wide {
                    let count = rowBytes / 2
                    p.withMemoryRebound(to: UInt16.self, capacity: count) { p16 in
                        q.withMemoryRebound(to: UInt16.self, capacity: count) { q16 in
                            r.withMemoryRebound(to: UInt16.self, capacity: count) { r16 in
                                for i in 0..<count {
                                    r16[i] = UInt16(truncatingIfNeeded: (UInt32(p16[i]) &* a &+ UInt32(q16[i]) &* b &+ 128) >> 8)
                                }
                            }
                        }
                    }
                } else {
                    let a16 = UInt16(a), b16 = UInt16(b)
                    for i in 0..<rowBytes {
                        r[i] = UInt8(truncatingIfNeeded: (UInt16(p[i]) &* a16 &+ UInt16(q[i]) &* b16 &+ 128) >> 8)
                    }
                }
            }
        }
        return output
    }
}

extension ColorInfo {
    /// A colour description from FFmpeg's names (`bt709`, `bt2020`, `arib-std-b67`, `tv`).
    public static func named(primaries: String?, transfer: String?, matrix: String?, range: String?) -> ColorInfo {
        ColorInfo(primaries: primaries, transfer: transfer, matrix: matrix, range: range)
    }
}
