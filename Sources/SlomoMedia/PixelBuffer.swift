/// A picture a program draws itself, in memory it owns: 8-bit RGBA or BGRA (one plane, four
/// bytes a pixel) or YUV 4:2:0 (three planes, BT.709 limited range, chroma at half width and
/// height rounded up). Rows are packed (`bytesPerRow` is the plane's width in bytes). What
/// `MovieWriter` takes; a value type, copied on write.
public struct PixelBuffer: Sendable, Hashable {
    /// How the samples are laid out.
    public enum Layout: String, Sendable, Hashable, CaseIterable {
        /// R, G, B, A bytes a pixel (cairo's and most drawing code's ARGB32 is `bgra` on little-endian machines).
        case rgba
        /// B, G, R, A bytes a pixel.
        case bgra
        /// Planar Y, U (Cb), V (Cr), 8 bits each, U and V at half resolution both ways.
        case yuv420p
    }

    /// An 8-bit colour with alpha, given in RGB.
    public struct Color: Sendable, Hashable {
        public var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8

        public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
            self.red = red
            self.green = green
            self.blue = blue
            self.alpha = alpha
        }

        public static let black = Color(red: 0, green: 0, blue: 0)
        public static let white = Color(red: 255, green: 255, blue: 255)

        /// Y, Cb, Cr of this colour in BT.709 limited range (16–235, 16–240); alpha is ignored.
        public var bt709: (y: UInt8, cb: UInt8, cr: UInt8) {
            let r = Double(red) / 255, g = Double(green) / 255, b = Double(blue) / 255
            let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
            let cb = (b - y) / 1.8556, cr = (r - y) / 1.5748
            func byte(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }
            return (byte(16 + 219 * y), byte(128 + 224 * cb), byte(128 + 224 * cr))
        }
    }

    public let layout: Layout
    public let width: Int
    public let height: Int
    /// The samples: one plane for `rgba`/`bgra`, three (Y, U, V) for `yuv420p`.
    public var planes: [[UInt8]]

    /// A `width`×`height` picture filled with `color` (opaque black by default).
    public init(_ layout: Layout, width: Int, height: Int, color: Color = .black) {
        precondition(width > 0 && height > 0, "a picture has at least one pixel")
        self.layout = layout
        self.width = width
        self.height = height
        planes = (0..<(layout == .yuv420p ? 3 : 1)).map { plane in
            [UInt8](repeating: 0, count: Self.planeWidth(layout, width, plane) * Self.planeHeight(layout, height, plane))
        }
        fill(x: 0, y: 0, width: width, height: height, with: color)
    }

    /// Bytes in one row of `plane`.
    public func bytesPerRow(plane: Int) -> Int { Self.planeWidth(layout, width, plane) }

    /// Rows in `plane`.
    public func rows(plane: Int) -> Int { Self.planeHeight(layout, height, plane) }

    /// Paints the rectangle at (`x`, `y`) (clipped to the picture) with `color`, replacing what
    /// was there (alpha is stored, not blended). In `yuv420p` a chroma sample is painted when
    /// the luma pixel at its top-left corner is.
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, with color: Color) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        switch layout {
        case .rgba, .bgra:
            let bytes = layout == .rgba ? [color.red, color.green, color.blue, color.alpha]
                                        : [color.blue, color.green, color.red, color.alpha]
            planes[0].withUnsafeMutableBufferPointer { plane in
                for row in y0..<y1 {
                    for column in x0..<x1 {
                        let at = (row * width + column) * 4
                        for k in 0..<4 { plane[at + k] = bytes[k] }
                    }
                }
            }
        case .yuv420p:
            let (luma, cb, cr) = color.bt709
            for row in y0..<y1 { planes[0].replaceSubrange(row * width + x0 ..< row * width + x1, with: repeatElement(luma, count: x1 - x0)) }
            let chromaWidth = bytesPerRow(plane: 1)
            let cx0 = (x0 + 1) / 2, cx1 = (x1 + 1) / 2, cy0 = (y0 + 1) / 2, cy1 = (y1 + 1) / 2
            guard cx0 < cx1 else { return }
            for row in cy0..<cy1 {
                planes[1].replaceSubrange(row * chromaWidth + cx0 ..< row * chromaWidth + cx1, with: repeatElement(cb, count: cx1 - cx0))
                planes[2].replaceSubrange(row * chromaWidth + cx0 ..< row * chromaWidth + cx1, with: repeatElement(cr, count: cx1 - cx0))
            }
        }
    }

    private static func planeWidth(_ layout: Layout, _ width: Int, _ plane: Int) -> Int {
        switch layout {
        case .rgba, .bgra: width * 4
        case .yuv420p: plane == 0 ? width : (width + 1) / 2
        }
    }

    private static func planeHeight(_ layout: Layout, _ height: Int, _ plane: Int) -> Int {
        layout == .yuv420p && plane > 0 ? (height + 1) / 2 : height
    }
}
