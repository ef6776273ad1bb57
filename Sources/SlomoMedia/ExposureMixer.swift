import CFFmpeg

/// The weighted mean of pictures in light, as a sensor collects it during an exposure: each
/// picture converted to R'G'B' (16 bits a component, with the pictures' own matrix and range),
/// its transfer undone (`TransferFunction`), added to running sums with its weight; the mean
/// re-encoded and converted back to the pictures' format, so the result goes wherever the
/// pictures went (8 or 10 bits, SDR or HLG/PQ, tags kept).
///
/// Averaging coded values instead would darken every blur: half a frame of white over black
/// is light 0.5, coded 0.71 in BT.709, where a mean of coded values gives 0.5 (docs/cfr.md).
///
/// ```swift
/// let mixer = try ExposureMixer(width: 1280, height: 720, format: .yuv420p, color: first.color)
/// mixer.start()
/// for (frame, weight) in exposed { try mixer.add(frame, weight: weight) }
/// let picture = try mixer.finish(like: exposed[0].frame)
/// ```
public final class ExposureMixer {
    public let width: Int, height: Int
    public let format: PixelFormat
    private let toRGB: Scaler, fromRGB: Scaler
    /// Light of each 16-bit coded value.
    private let light: [Float]
    /// Coded 16-bit value of each light, indexed by √light × 65535 (fine where the curve is steep).
    private let coded: [UInt16]
    /// Running sums of weighted light, R, G and B planes of `width × height`.
    private var sums: [Float]
    private var totalWeight: Float = 0

    /// A mixer of `width`×`height` pictures in `format` whose colour is described by `color`.
    public init(width: Int, height: Int, format: PixelFormat, color: ColorInfo) throws(FFmpegError) {
        self.width = width
        self.height = height
        self.format = format
        let rgb = PixelFormat(AV_PIX_FMT_GBRP16LE)
        toRGB = try Scaler(width: width, height: height, format: format, toWidth: width, height: height, format: rgb)
        fromRGB = try Scaler(width: width, height: height, format: rgb, toWidth: width, height: height, format: format)
        toRGB.useColorimetry(of: color, toRGB: true)
        fromRGB.useColorimetry(of: color, toRGB: false)
        let transfer = TransferFunction(named: color.transfer)
        light = (0...65535).map { Float(transfer.linear(Double($0) / 65535)) }
        coded = (0...65535).map { index in
            let root = Double(index) / 65535
            return UInt16((transfer.encoded(root * root) * 65535).rounded())
        }
        sums = [Float](repeating: 0, count: 3 * width * height)
    }

    /// Forgets what was added: the next exposure starts.
    public func start() {
        sums.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        totalWeight = 0
    }

    /// Adds `frame`'s light with `weight` (its share of the exposure).
    public func add(_ frame: Frame, weight: Float) throws(FFmpegError) {
        let rgb = try toRGB.scale(frame)
        light.withUnsafeBufferPointer { light in
            sums.withUnsafeMutableBufferPointer { sums in
                for plane in 0..<3 {
                    let source = rgb.planeData(plane)!, stride = rgb.lineSize(plane: plane)
                    let target = sums.baseAddress! + plane * width * height
                    for row in 0..<height {
                        (source + row * stride).withMemoryRebound(to: UInt16.self, capacity: width) { values in
                            let sum = target + row * width
                            for x in 0..<width { sum[x] += weight * light[Int(values[x])] }
                        }
                    }
                }
            }
        }
        totalWeight += weight
    }

    /// The mean of what was added, in the pictures' format, with `like`'s properties
    /// (timestamps, colour tags).
    public func finish(like frame: Frame) throws(FFmpegError) -> Frame {
        let rgb = try Frame.video(width: width, height: height, format: toRGB.outputFormat, timeBase: frame.timeBase)
        try check(av_frame_copy_props(rgb.pointer, frame.pointer), "copy frame properties")
        let scale = totalWeight > 0 ? 1 / totalWeight : 0
        coded.withUnsafeBufferPointer { coded in
            sums.withUnsafeBufferPointer { sums in
                for plane in 0..<3 {
                    let target = rgb.planeData(plane)!, stride = rgb.lineSize(plane: plane)
                    let source = sums.baseAddress! + plane * width * height
                    for row in 0..<height {
                        (target + row * stride).withMemoryRebound(to: UInt16.self, capacity: width) { values in
                            let sum = source + row * width
                            for x in 0..<width {
                                let root = (min(max(sum[x] * scale, 0), 1)).squareRoot()
                                values[x] = coded[Int(root * 65535 + 0.5)]
                            }
                        }
                    }
                }
            }
        }
        return try fromRGB.scale(rgb)
    }
}
