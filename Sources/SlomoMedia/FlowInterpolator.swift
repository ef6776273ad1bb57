import CFFmpeg
import CInterpolate
import SlomoConcurrency
import SlomoCore

/// Builds pictures between two decoded pictures by optical flow (OpenCV's DIS flow behind
/// the `CInterpolate` C API): `setPair(_:_:)` estimates the motion both ways once, then
/// `render(at:)` makes any number of in-between pictures from it. A pair that is a scene cut
/// or whose flow failed is reported by `isCut`; rendering it copies the nearer picture.
///
/// Works on planar YUV 4:2:0 and 4:2:2, 8 or 10 bits (`supportedFormats`), at least 16×16.
/// One interpolator belongs to one thread at a time (like every FFmpeg context here); several
/// may run on different threads. OpenCV runs single-threaded inside it.
public final class FlowInterpolator {
    /// The pixel formats it takes (FFmpeg's names); full-range `yuvj` variants share their layout.
    public static let supportedFormats = ["yuv420p", "yuvj420p", "yuv422p", "yuvj422p", "yuv420p10le", "yuv422p10le"]
    /// The smallest width and height it takes.
    public static let minimumSize = 16

    /// Picture width in pixels.
    public let width: Int
    /// Picture height in pixels.
    public let height: Int
    /// The format of every picture it takes and makes.
    public let pixelFormat: PixelFormat
    /// The flow preset it was created with.
    public let preset: InterpolationPreset

    private let engine: OpaquePointer
    private var pair: (a: Frame, b: Frame)?

    /// Why pictures of this size and format cannot be interpolated; nil when they can.
    public static func unsupportedReason(width: Int, height: Int, pixelFormat: String) -> FlowInterpolationError? {
        guard supportedFormats.contains(pixelFormat) else {
            return FlowInterpolationError(.unsupportedFormat, "optical-flow interpolation takes planar YUV 4:2:0 or 4:2:2 at 8 or 10 bits "
                                          + "(\(supportedFormats.joined(separator: ", "))), not \(pixelFormat)")
        }
        guard width >= minimumSize, height >= minimumSize else {
            return FlowInterpolationError(.tooSmall, "optical-flow interpolation needs pictures of at least \(minimumSize)x\(minimumSize), "
                                          + "not \(width)x\(height)")
        }
        return nil
    }

    /// An interpolator for pictures of one size and format. Throws `FlowInterpolationError`
    /// (`.unsupportedFormat`, `.tooSmall`, `.libraryUnavailable`, `.engineFailure`).
    public init(width: Int, height: Int, pixelFormat: PixelFormat, preset: InterpolationPreset = .defaultPreset) throws(FlowInterpolationError) {
        if let reason = Self.unsupportedReason(width: width, height: height, pixelFormat: pixelFormat.name) { throw reason }
        var reason = [CChar](repeating: 0, count: 512)
        guard ci_available(&reason, reason.count) != 0 else {
            throw FlowInterpolationError(.libraryUnavailable, "optical-flow interpolator: "
                                         + String(decoding: reason.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        let format: ci_pixel_format
        switch pixelFormat.raw {
        case AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUVJ420P: format = CI_YUV420P
        case AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUVJ422P: format = CI_YUV422P
        case AV_PIX_FMT_YUV420P10LE: format = CI_YUV420P10LE
        default: format = CI_YUV422P10LE
        }
        let flowPreset: ci_preset
        switch preset {
        case .draft: flowPreset = CI_PRESET_DRAFT
        case .fast: flowPreset = CI_PRESET_FAST
        case .quality: flowPreset = CI_PRESET_QUALITY
        }
        var message = [CChar](repeating: 0, count: 256)
        guard let engine = ci_create(Int32(width), Int32(height), format, flowPreset, &message, message.count) else {
            throw FlowInterpolationError(.engineFailure, "optical-flow interpolator: "
                                         + String(decoding: message.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.engine = engine
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.preset = preset
    }

    deinit { ci_destroy(engine) }

    /// Loads the pair (a, b) and estimates its motion both ways; the pictures must have the
    /// interpolator's size and format. Loading the previous pair's `b` as the new `a` reuses
    /// its copy. After a failure there is no current pair.
    public func setPair(_ a: Frame, _ b: Frame) throws(FlowInterpolationError) {
        pair = nil
        try checkPicture(a)
        try checkPicture(b)
        var first = Self.planes(of: a), second = Self.planes(of: b)
        try checkResult(ci_set_pair(engine, &first, &second), "estimate flow")
        do {
            pair = (try a.clone(), try b.clone())
        } catch {
            throw FlowInterpolationError(.engineFailure, "optical-flow interpolator: cannot keep the pair (\(error))")
        }
    }

    /// True when the current pair is a scene cut or its flow failed: `render(at:)` then copies
    /// the nearer picture (t < 0.5: a, else b). False without a pair.
    public var isCut: Bool { ci_pair_is_cut(engine) == 1 }

    /// A new picture at fraction `t` (strictly between 0 and 1) of the way from the current
    /// pair's `a` to `b`. Its properties (colour tags, side data) are `a`'s and its `pts` lies
    /// the same fraction between theirs, rounded, in `a`'s time base. The picture is the
    /// caller's alone (`disconnected`), so it may go to another thread.
    public func render(at t: Double) throws(FlowInterpolationError) -> sending Frame {
        guard let pair else { throw FlowInterpolationError(.engineFailure, "optical-flow interpolator: render without a pair") }
        guard t > 0, t < 1 else { throw FlowInterpolationError(.engineFailure, "optical-flow interpolator: fraction \(t) outside (0, 1)") }
        let output: Frame
        do {
            output = try Frame.video(width: width, height: height, format: pixelFormat, timeBase: pair.a.timeBase)
            try check(av_frame_copy_props(output.pointer, pair.a.pointer), "copy frame properties")
        } catch {
            throw FlowInterpolationError(.engineFailure, "optical-flow interpolator: \(error)")
        }
        var planes = Self.planes(of: output)
        try checkResult(ci_render(engine, t, &planes), "render")
        if let a = pair.a.pts, let b = pair.b.pts {
            output.pts = a + Int64((Double(b - a) * t).rounded())
        }
        return disconnected(consume output)
    }

    private func checkPicture(_ frame: Frame) throws(FlowInterpolationError) {
        guard frame.width == width, frame.height == height, frame.pixelFormat == pixelFormat else {
            throw FlowInterpolationError(.mismatchedPicture, "optical-flow interpolator for \(width)x\(height) \(pixelFormat) "
                                         + "got a \(frame.width)x\(frame.height) \(frame.pixelFormat) picture")
        }
    }

    private func checkResult(_ status: Int32, _ operation: String) throws(FlowInterpolationError) {
        guard status >= 0 else {
            throw FlowInterpolationError(.engineFailure, "optical-flow interpolator: \(operation): " + String(cString: ci_last_error(engine)))
        }
    }

    private static func planes(of frame: Frame) -> ci_planes {
        let data = frame.pointer.pointee.data, lines = frame.pointer.pointee.linesize
        return ci_planes(data: (data.0, data.1, data.2), linesize: (lines.0, lines.1, lines.2))
    }
}
