import SlomoCore

/// A range of frame rates a device offers for one format and size: a single rate (discrete),
/// or every rate between two (continuous), or rates on a grid of frame intervals (stepwise).
public struct FrameRateRange: Hashable, Sendable, Codable, CustomStringConvertible {
    /// How the range lists its rates.
    public enum Kind: String, Hashable, Sendable, Codable { case discrete, continuous, stepwise }

    public var kind: Kind
    public var minFrameRate: Rational
    public var maxFrameRate: Rational
    /// For stepwise ranges: the frame interval step in seconds.
    public var intervalStep: Rational?

    public init(kind: Kind = .discrete, minFrameRate: Rational, maxFrameRate: Rational, intervalStep: Rational? = nil) {
        self.kind = kind
        self.minFrameRate = minFrameRate
        self.maxFrameRate = maxFrameRate
        self.intervalStep = intervalStep
    }

    /// A single rate.
    public init(_ rate: Rational) { self.init(minFrameRate: rate, maxFrameRate: rate) }

    /// True when the device can run at `rate` (to within 0.1 %).
    public func contains(_ rate: Rational) -> Bool {
        let value = rate.doubleValue
        return value >= minFrameRate.doubleValue * 0.999 && value <= maxFrameRate.doubleValue * 1.001
    }

    public var description: String {
        kind == .discrete ? FrameRateRange.text(maxFrameRate)
            : "\(FrameRateRange.text(minFrameRate))-\(FrameRateRange.text(maxFrameRate))"
    }

    static func text(_ rate: Rational) -> String {
        let value = rate.doubleValue
        return value == value.rounded() ? String(Int(value)) : String(format: "%.3f", value)
    }
}

/// One format a capture device offers: a pixel format at a frame size, with the frame rates
/// the device can deliver at that size.
public struct CaptureFormat: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The V4L2 four-character code, e.g. `MJPG`, `YUYV`, `H264`.
    public var fourCC: String
    /// The driver's description, e.g. `Motion-JPEG`.
    public var pixelFormatDescription: String
    /// True for compressed formats (MJPEG, H.264), which slomo records without re-encoding.
    public var isCompressed: Bool
    public var width: Int
    public var height: Int
    /// For stepwise or continuous sizes: the largest size and the step (width and height are
    /// then the smallest size).
    public var maxWidth: Int?
    public var maxHeight: Int?
    public var frameRateRanges: [FrameRateRange]

    public init(fourCC: String, pixelFormatDescription: String, isCompressed: Bool, width: Int, height: Int,
                maxWidth: Int? = nil, maxHeight: Int? = nil, frameRateRanges: [FrameRateRange]) {
        self.fourCC = fourCC
        self.pixelFormatDescription = pixelFormatDescription
        self.isCompressed = isCompressed
        self.width = width
        self.height = height
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.frameRateRanges = frameRateRanges
    }

    /// The highest frame rate of the format.
    public var maxFrameRate: Rational? { frameRateRanges.map(\.maxFrameRate).max() }

    /// FFmpeg's name for the pixel format, as `--pixel-format` and the v4l2 input want it.
    public var ffmpegPixelFormat: String {
        switch fourCC {
        case "MJPG", "JPEG": "mjpeg"
        case "H264": "h264"
        case "YUYV": "yuyv422"
        case "UYVY": "uyvy422"
        case "NV12": "nv12"
        case "YU12": "yuv420p"
        case "GREY": "gray"
        case "RGB3": "rgb24"
        case "BGR3": "bgr24"
        default: fourCC.lowercased()
        }
    }

    /// True when the format covers `request` (size and, when given, frame rate).
    public func matches(_ request: Request) -> Bool {
        let sizeMatches = maxWidth == nil
            ? (width == request.width && height == request.height)
            : (request.width >= width && request.width <= maxWidth! && request.height >= height && request.height <= maxHeight!)
        guard sizeMatches else { return false }
        guard let rate = request.frameRate else { return true }
        return frameRateRanges.contains { $0.contains(rate) }
    }

    /// `MJPG 1280x720 @ 240, 120 fps`.
    public var description: String {
        let size = maxWidth.map { "\(width)x\(height)-\($0)x\(maxHeight!)" } ?? "\(width)x\(height)"
        return "\(fourCC) \(size) @ \(frameRateRanges.map(\.description).joined(separator: ", ")) fps"
    }

    /// A format asked for on the command line: `1280x720@240`, `1920x1080@59.94`, `640x480`.
    public struct Request: Hashable, Sendable, CustomStringConvertible {
        public var width: Int
        public var height: Int
        public var frameRate: Rational?

        public init(width: Int, height: Int, frameRate: Rational? = nil) {
            self.width = width
            self.height = height
            self.frameRate = frameRate
        }

        public init?(parsing text: String) {
            let parts = text.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return nil }
            let size = parts[0].split(separator: "x")
            guard size.count == 2, let width = Int(size[0]), let height = Int(size[1]), width > 0, height > 0 else { return nil }
            self.width = width
            self.height = height
            if parts.count == 2 {
                guard let rate = Rational(frameRate: String(parts[1])), rate.numerator > 0 else { return nil }
                frameRate = rate
            }
        }

        public var description: String { "\(width)x\(height)" + (frameRate.map { "@\(FrameRateRange.text($0))" } ?? "") }
    }
}
