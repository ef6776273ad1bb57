import CFFmpeg

/// The weighted mean of pictures in light, as a sensor collects it during an exposure: each
/// picture converted to R'G'B' (with the pictures' own matrix and range), its transfer undone
/// (`TransferFunction`), added to running sums with its weight; the mean re-encoded and
/// converted back to the pictures' format, so the result goes wherever the pictures went (8 or
/// 10 bits, SDR or HLG/PQ, tags kept). 8-bit pictures go through packed 8-bit RGB (libswscale's
/// fast path, a 256-entry table); deeper ones through planar 16-bit RGB.
///
/// Averaging coded values instead would darken every blur: a sixteenth of the exposure of white
/// over black is light 1/16, coded 0.22 in BT.709, where a mean of coded values gives 0.06
/// (docs/cfr.md).
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
    /// Planes of the R'G'B' pictures (1 packed, or 3) and the samples a row of one holds.
    private let planes: Int, rowSamples: Int
    /// 16-bit samples (else 8-bit).
    private let wide: Bool
    /// Light of each coded sample value.
    private let light: [Float]
    /// Coded sample value of each light, indexed by the top 20 bits of the light's `Float` (its
    /// exponent and 11 bits of mantissa: 0.05 % apart, fine where the curve is steep) from 2⁻²⁴ up.
    private let coded: [UInt16]
    /// The top 20 bits of 2⁻²⁴, `coded`'s first index, and how many lights `coded` holds.
    private static let lowestLight = Float(1.0 / 16_777_216).bitPattern >> 12
    private static let lights = Int((Float(1).bitPattern >> 12) - lowestLight) + 1
    /// Running sums of weighted light, plane after plane, row after row, `rowSamples` a row.
    private var sums: [Float]
    private var totalWeight: Float = 0

    /// A mixer of `width`×`height` pictures in `format` whose colour is described by `color`.
    public init(width: Int, height: Int, format: PixelFormat, color: ColorInfo) throws(FFmpegError) {
        self.width = width
        self.height = height
        self.format = format
        wide = (format.bitDepth ?? 8) > 8
        let rgb = PixelFormat(wide ? AV_PIX_FMT_GBRP16LE : AV_PIX_FMT_RGB24)
        (planes, rowSamples) = wide ? (3, width) : (1, 3 * width)
        toRGB = try Scaler(width: width, height: height, format: format, toWidth: width, height: height, format: rgb)
        fromRGB = try Scaler(width: width, height: height, format: rgb, toWidth: width, height: height, format: format)
        toRGB.useColorimetry(of: color, toRGB: true)
        fromRGB.useColorimetry(of: color, toRGB: false)
        let transfer = TransferFunction(named: color.transfer)
        let top = wide ? 65535.0 : 255
        light = (0...Int(top)).map { Float(transfer.linear(Double($0) / top)) }
        coded = (0..<Self.lights).map { index in
            let light = Float(bitPattern: (UInt32(index) + Self.lowestLight) << 12 | 0x800)    // the middle of its bucket
            return UInt16((transfer.encoded(Double(light)) * top).rounded())
        }
        sums = [Float](repeating: 0, count: planes * height * rowSamples)
    }

    /// Forgets what was added: the next exposure starts.
    public func start() {
        sums.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        totalWeight = 0
    }

    /// Adds `frame`'s light with `weight` (its share of the exposure).
    public func add(_ frame: Frame, weight: Float) throws(FFmpegError) {
        let rgb = try toRGB.scale(frame)
        if wide {
            accumulate(rgb, weight: weight, as: UInt16.self)
        } else {
            accumulate(rgb, weight: weight, as: UInt8.self)
        }
        totalWeight += weight
    }

    private func accumulate<Sample: FixedWidthInteger>(_ rgb: Frame, weight: Float, as: Sample.Type) {
        let count = rowSamples
        light.withUnsafeBufferPointer { light in
            sums.withUnsafeMutableBufferPointer { sums in
                for plane in 0..<planes {
                    let source = rgb.planeData(plane)!, stride = rgb.lineSize(plane: plane)
                    for row in 0..<height {
                        let sum = sums.baseAddress! + (plane * height + row) * count
                        (source + row * stride).withMemoryRebound(to: Sample.self, capacity: count) { values in
                            for x in 0..<count { sum[x] += weight * light[Int(values[x])] }
                        }
                    }
                }
            }
        }
    }

    /// The mean of what was added, in the pictures' format, with `like`'s properties
    /// (timestamps, colour tags).
    public func finish(like frame: Frame) throws(FFmpegError) -> Frame {
        let rgb = try Frame.video(width: width, height: height, format: toRGB.outputFormat, timeBase: frame.timeBase)
        try check(av_frame_copy_props(rgb.pointer, frame.pointer), "copy frame properties")
        let scale = totalWeight > 0 ? 1 / totalWeight : 0
        if wide {
            encode(into: rgb, scale: scale, as: UInt16.self)
        } else {
            encode(into: rgb, scale: scale, as: UInt8.self)
        }
        return try fromRGB.scale(rgb)
    }

    private func encode<Sample: FixedWidthInteger>(into rgb: Frame, scale: Float, as: Sample.Type) {
        let count = rowSamples
        coded.withUnsafeBufferPointer { coded in
            sums.withUnsafeBufferPointer { sums in
                for plane in 0..<planes {
                    let target = rgb.planeData(plane)!, stride = rgb.lineSize(plane: plane)
                    for row in 0..<height {
                        let sum = sums.baseAddress! + (plane * height + row) * count
                        (target + row * stride).withMemoryRebound(to: Sample.self, capacity: count) { values in
                            for x in 0..<count {
                                let bits = max(sum[x] * scale, 0).bitPattern >> 12
                                let index = min(max(bits, Self.lowestLight) - Self.lowestLight, UInt32(Self.lights - 1))
                                values[x] = Sample(truncatingIfNeeded: coded[Int(index)])
                            }
                        }
                    }
                }
            }
        }
    }
}
