import CV4L2
import Foundation
import SlomoCore

/// A test double of a camera: answers the V4L2 ioctls from the text that
/// `v4l2-ctl --list-formats-ext` printed for a real device, so that enumeration is tested
/// where no camera exists (in the style of swift-nio's embedded channels).
public final class RecordedV4L2Device: V4L2Device {
    struct Format {
        var fourCC: UInt32
        var description: String
        var compressed: Bool
        var sizes: [Size] = []
    }

    enum SizeSpec { case discrete(Int, Int), stepwise(minW: Int, minH: Int, maxW: Int, maxH: Int, stepW: Int, stepH: Int, continuous: Bool) }
    enum IntervalSpec { case discrete(v4l2_fract), stepwise(min: v4l2_fract, max: v4l2_fract, step: v4l2_fract, continuous: Bool) }

    struct Size {
        var spec: SizeSpec
        var intervals: [IntervalSpec] = []
    }

    private var formats: [Format] = []
    public let card: String
    public let driver: String
    /// How many ioctls were asked, for tests.
    public private(set) var requestCount = 0
    /// The controls, when recorded (`loadControls(listCtrlsMenus:)`), with their values now.
    var controls: [CameraControl] = []
    /// The priority this handle holds (`VIDIOC_S_PRIORITY`), for tests.
    public internal(set) var priority: UInt32 = V4L2_PRIORITY_DEFAULT.rawValue

    /// Parses the output of `v4l2-ctl --list-formats-ext` (and reports the device as `card`).
    public init(listFormatsExt text: String, card: String = "Recorded Camera", driver: String = "uvcvideo") throws(CaptureError) {
        self.card = card
        self.driver = driver
        for rawLine in text.split(separator: "\n") {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("["), let quote = line.firstIndex(of: "'") {
                // [0]: 'MJPG' (Motion-JPEG, compressed)
                let afterQuote = line.index(after: quote)
                guard let close = line[afterQuote...].firstIndex(of: "'") else { continue }
                let code = String(line[afterQuote..<close])
                var description = ""
                if let open = line.firstIndex(of: "("), let end = line.lastIndex(of: ")") {
                    description = String(line[line.index(after: open)..<end])
                }
                let compressed = description.hasSuffix(", compressed")
                if compressed { description = String(description.dropLast(", compressed".count)) }
                formats.append(Format(fourCC: V4L2Enumeration.fourCCCode(code), description: description, compressed: compressed))
            } else if line.hasPrefix("Size:") {
                guard !formats.isEmpty else { throw CaptureError(.invalidInput, "a Size line before any format: \(line)") }
                let numbers = Self.integers(in: line)
                if line.contains("Discrete"), numbers.count >= 2 {
                    formats[formats.count - 1].sizes.append(Size(spec: .discrete(numbers[0], numbers[1])))
                } else if numbers.count >= 4 {
                    let stepW = numbers.count >= 6 ? numbers[4] : 1, stepH = numbers.count >= 6 ? numbers[5] : 1
                    formats[formats.count - 1].sizes.append(Size(spec: .stepwise(
                        minW: numbers[0], minH: numbers[1], maxW: numbers[2], maxH: numbers[3],
                        stepW: stepW, stepH: stepH, continuous: line.contains("Continuous"))))
                } else {
                    throw CaptureError(.invalidInput, "cannot read the size line: \(line)")
                }
            } else if line.hasPrefix("Interval:") {
                guard let last = formats.indices.last, let size = formats[last].sizes.indices.last else {
                    throw CaptureError(.invalidInput, "an Interval line before any size: \(line)")
                }
                // Interval: Discrete 0.004s (240.000 fps)
                // Interval: Stepwise 0.033s - 1.000s with step 0.000s (1.000-30.000 fps)
                guard let open = line.lastIndex(of: "("), let fpsRange = line[line.index(after: open)...].split(separator: " ").first else {
                    throw CaptureError(.invalidInput, "cannot read the interval line: \(line)")
                }
                let rates = fpsRange.split(separator: "-").compactMap { Double($0) }
                if line.contains("Discrete"), let rate = rates.first {
                    formats[last].sizes[size].intervals.append(.discrete(Self.interval(fps: rate)))
                } else if rates.count == 2 {
                    formats[last].sizes[size].intervals.append(.stepwise(
                        min: Self.interval(fps: rates[1]), max: Self.interval(fps: rates[0]),
                        step: v4l2_fract(numerator: 1, denominator: 1_000_000), continuous: line.contains("Continuous")))
                } else {
                    throw CaptureError(.invalidInput, "cannot read the interval line: \(line)")
                }
            }
        }
    }

    /// The frame interval of a rate printed with three decimals: 240.000 → 1/240,
    /// 29.970 → 1001/30000, 7.500 → 2/15.
    static func interval(fps: Double) -> v4l2_fract {
        let rounded = fps.rounded()
        if abs(fps - rounded) < 0.0005 { return v4l2_fract(numerator: 1, denominator: UInt32(rounded)) }
        let ntsc = (fps * 1.001).rounded()
        if abs(fps * 1.001 - ntsc) < 0.002 { return v4l2_fract(numerator: 1001, denominator: UInt32(ntsc * 1000)) }
        for numerator in 2...1000 where abs(fps * Double(numerator) - (fps * Double(numerator)).rounded()) < 0.0005 * Double(numerator) {
            return v4l2_fract(numerator: UInt32(numerator), denominator: UInt32((fps * Double(numerator)).rounded()))
        }
        return v4l2_fract(numerator: 1000, denominator: UInt32((fps * 1000).rounded()))
    }

    private static func integers(in line: String) -> [Int] {
        line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    }

    public func control(_ request: UInt, _ argument: UnsafeMutableRawPointer) -> Int32 {
        requestCount += 1
        let invalid = slomo_errno_einval()
        switch request {
        case V4L2Request.queryCapabilities:
            let capability = argument.assumingMemoryBound(to: v4l2_capability.self)
            capability.pointee = v4l2_capability()
            Self.write(driver, into: &capability.pointee.driver)
            Self.write(card, into: &capability.pointee.card)
            Self.write("usb-0000:00:14.0-1", into: &capability.pointee.bus_info)
            capability.pointee.capabilities = slomo_v4l2_cap_video_capture() | slomo_v4l2_cap_device_caps()
            capability.pointee.device_caps = slomo_v4l2_cap_video_capture()
            return 0
        case V4L2Request.enumerateFormats:
            let description = argument.assumingMemoryBound(to: v4l2_fmtdesc.self)
            let index = Int(description.pointee.index)
            guard description.pointee.type == V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue, index < formats.count else { return invalid }
            let format = formats[index]
            description.pointee.pixelformat = format.fourCC
            description.pointee.flags = format.compressed ? slomo_v4l2_fmt_flag_compressed() : 0
            Self.write(format.description, into: &description.pointee.description)
            return 0
        case V4L2Request.enumerateFrameSizes:
            let frameSize = argument.assumingMemoryBound(to: v4l2_frmsizeenum.self)
            guard let format = formats.first(where: { $0.fourCC == frameSize.pointee.pixel_format }),
                  Int(frameSize.pointee.index) < format.sizes.count else { return invalid }
            switch format.sizes[Int(frameSize.pointee.index)].spec {
            case .discrete(let width, let height):
                frameSize.pointee.type = V4L2_FRMSIZE_TYPE_DISCRETE.rawValue
                frameSize.pointee.discrete = v4l2_frmsize_discrete(width: UInt32(width), height: UInt32(height))
            case .stepwise(let minW, let minH, let maxW, let maxH, let stepW, let stepH, let continuous):
                frameSize.pointee.type = (continuous ? V4L2_FRMSIZE_TYPE_CONTINUOUS : V4L2_FRMSIZE_TYPE_STEPWISE).rawValue
                frameSize.pointee.stepwise = v4l2_frmsize_stepwise(
                    min_width: UInt32(minW), max_width: UInt32(maxW), step_width: UInt32(stepW),
                    min_height: UInt32(minH), max_height: UInt32(maxH), step_height: UInt32(stepH))
            }
            return 0
        case V4L2Request.enumerateFrameIntervals:
            let interval = argument.assumingMemoryBound(to: v4l2_frmivalenum.self)
            guard let format = formats.first(where: { $0.fourCC == interval.pointee.pixel_format }),
                  let size = format.sizes.first(where: { size in
                      let (w, h) = (Int(interval.pointee.width), Int(interval.pointee.height))
                      switch size.spec {
                      case .discrete(let width, let height): return width == w && height == h
                      case .stepwise(let minW, let minH, let maxW, let maxH, _, _, _):
                          return (minW...maxW).contains(w) && (minH...maxH).contains(h)
                      }
                  }),
                  Int(interval.pointee.index) < size.intervals.count else { return invalid }
            switch size.intervals[Int(interval.pointee.index)] {
            case .discrete(let fraction):
                interval.pointee.type = V4L2_FRMIVAL_TYPE_DISCRETE.rawValue
                interval.pointee.discrete = fraction
            case .stepwise(let min, let max, let step, let continuous):
                interval.pointee.type = (continuous ? V4L2_FRMIVAL_TYPE_CONTINUOUS : V4L2_FRMIVAL_TYPE_STEPWISE).rawValue
                interval.pointee.stepwise = v4l2_frmival_stepwise(min: min, max: max, step: step)
            }
            return 0
        default:
            return answerControlRequest(request, argument)
        }
    }

    static func write<T>(_ text: String, into tuple: inout T) {
        withUnsafeMutableBytes(of: &tuple) { bytes in
            bytes.initializeMemory(as: UInt8.self, repeating: 0)
            for (index, byte) in text.utf8.prefix(bytes.count - 1).enumerated() { bytes[index] = byte }
        }
    }
}
