import CV4L2
import SlomoCore

/// Lists what a V4L2 device can capture through `VIDIOC_QUERYCAP`, `VIDIOC_ENUM_FMT`,
/// `VIDIOC_ENUM_FRAMESIZES` and `VIDIOC_ENUM_FRAMEINTERVALS` (libavdevice cannot list frame
/// intervals).
public enum V4L2Enumeration {
    /// The device's identity and every pixel format × frame size with its frame-rate ranges.
    /// Throws when the node is not a video capture device.
    public static func describe(_ device: any V4L2Device, path: String) throws(CaptureError) -> CaptureDevice {
        var capability = v4l2_capability()
        let status = withUnsafeMutableBytes(of: &capability) { device.control(V4L2Request.queryCapabilities, $0.baseAddress!) }
        guard status == 0 else { throw CaptureError(.deviceNotFound, "\(path): not a V4L2 device") }
        let caps = capability.capabilities & slomo_v4l2_cap_device_caps() != 0 ? capability.device_caps : capability.capabilities
        guard caps & slomo_v4l2_cap_video_capture() != 0 else {
            throw CaptureError(.deviceNotFound, "\(path): not a video capture device")
        }
        return CaptureDevice(path: path, name: text(of: &capability.card), driver: text(of: &capability.driver),
                             busInfo: text(of: &capability.bus_info), kind: .camera, formats: formats(of: device))
    }

    /// Every format the device lists, in its order.
    static func formats(of device: any V4L2Device) -> [CaptureFormat] {
        var result: [CaptureFormat] = []
        for index in 0..<256 {
            var description = v4l2_fmtdesc()
            description.index = UInt32(index)
            description.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            guard control(device, V4L2Request.enumerateFormats, &description) == 0 else { break }
            let fourCC = fourCCText(description.pixelformat)
            let name = text(of: &description.description)
            let compressed = description.flags & slomo_v4l2_fmt_flag_compressed() != 0
            for size in 0..<1024 {
                var frameSize = v4l2_frmsizeenum()
                frameSize.index = UInt32(size)
                frameSize.pixel_format = description.pixelformat
                guard control(device, V4L2Request.enumerateFrameSizes, &frameSize) == 0 else { break }
                if frameSize.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
                    let width = Int(frameSize.discrete.width), height = Int(frameSize.discrete.height)
                    result.append(CaptureFormat(fourCC: fourCC, pixelFormatDescription: name, isCompressed: compressed,
                                                width: width, height: height,
                                                frameRateRanges: rates(of: device, pixelFormat: description.pixelformat,
                                                                       width: width, height: height)))
                } else {
                    let step = frameSize.stepwise
                    result.append(CaptureFormat(fourCC: fourCC, pixelFormatDescription: name, isCompressed: compressed,
                                                width: Int(step.min_width), height: Int(step.min_height),
                                                maxWidth: Int(step.max_width), maxHeight: Int(step.max_height),
                                                frameRateRanges: rates(of: device, pixelFormat: description.pixelformat,
                                                                       width: Int(step.max_width), height: Int(step.max_height))))
                    break  // a stepwise or continuous size is the only entry
                }
            }
        }
        return result
    }

    /// The frame-rate ranges at one pixel format and size.
    static func rates(of device: any V4L2Device, pixelFormat: UInt32, width: Int, height: Int) -> [FrameRateRange] {
        var ranges: [FrameRateRange] = []
        for index in 0..<256 {
            var interval = v4l2_frmivalenum()
            interval.index = UInt32(index)
            interval.pixel_format = pixelFormat
            interval.width = UInt32(width)
            interval.height = UInt32(height)
            guard control(device, V4L2Request.enumerateFrameIntervals, &interval) == 0 else { break }
            if interval.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue {
                guard let rate = rate(of: interval.discrete) else { continue }
                ranges.append(FrameRateRange(rate))
            } else {
                let step = interval.stepwise
                // The longest interval is the lowest rate.
                guard let low = rate(of: step.max), let high = rate(of: step.min) else { break }
                let kind: FrameRateRange.Kind = interval.type == V4L2_FRMIVAL_TYPE_CONTINUOUS.rawValue ? .continuous : .stepwise
                var stepSeconds: Rational?
                if step.step.denominator != 0 {
                    stepSeconds = Rational(Int64(step.step.numerator), Int64(step.step.denominator))
                }
                ranges.append(FrameRateRange(kind: kind, minFrameRate: low, maxFrameRate: high,
                                             intervalStep: kind == .stepwise ? stepSeconds : nil))
                break
            }
        }
        return ranges.sorted { $0.maxFrameRate > $1.maxFrameRate }
    }

    /// A frame interval (seconds per frame) as a frame rate.
    static func rate(of interval: v4l2_fract) -> Rational? {
        guard interval.numerator > 0, interval.denominator > 0 else { return nil }
        return Rational(Int64(interval.denominator), Int64(interval.numerator))
    }

    /// `MJPG` from its little-endian code.
    public static func fourCCText(_ code: UInt32) -> String {
        var bytes: [UInt8] = []
        for shift in [0, 8, 16, 24] {
            let byte = UInt8(truncatingIfNeeded: code >> UInt32(shift))
            if byte != 0x20 && byte != 0 { bytes.append(byte) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The little-endian code of `MJPG`.
    public static func fourCCCode(_ text: String) -> UInt32 {
        let bytes: [UInt8] = Array(text.utf8) + [UInt8](repeating: 0x20, count: max(0, 4 - text.utf8.count))
        var code: UInt32 = 0
        for index in 0..<4 { code |= UInt32(bytes[index]) << UInt32(index * 8) }
        return code
    }

    private static func control<T>(_ device: any V4L2Device, _ request: UInt, _ value: inout T) -> Int32 {
        withUnsafeMutableBytes(of: &value) { device.control(request, $0.baseAddress!) }
    }

    /// A NUL-terminated C string inside an imported fixed-size array (a tuple).
    static func text<T>(of tuple: inout T) -> String {
        withUnsafeBytes(of: &tuple) { bytes in
            String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }
}
