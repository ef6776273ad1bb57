import CCairo
import Foundation
import SlomoPlot

/// A PNG file read back for tests: its signature and header checked byte by byte (a judge
/// independent of the writer), its pixels decoded by cairo.
struct PNGImage {
    let width: Int
    let height: Int
    /// 0xAARRGGBB, row by row.
    private let pixels: [UInt32]

    struct Invalid: Error, CustomStringConvertible { let description: String }

    init(path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard bytes.count > 24, bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw Invalid(description: "\(path) does not start with the PNG signature")
        }
        guard bytes[12..<16].elementsEqual(Array("IHDR".utf8)) else { throw Invalid(description: "\(path) has no IHDR first") }
        func bigEndian(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        width = bigEndian(16)
        height = bigEndian(20)
        let surface = cairo_image_surface_create_from_png(path)
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
              Int(cairo_image_surface_get_width(surface)) == width, Int(cairo_image_surface_get_height(surface)) == height,
              let data = cairo_image_surface_get_data(surface) else {
            throw Invalid(description: "cairo cannot decode \(path) as the \(width)x\(height) image its header declares")
        }
        let stride = Int(cairo_image_surface_get_stride(surface))
        var pixels: [UInt32] = []
        pixels.reserveCapacity(width * height)
        for row in 0..<height {
            let line = UnsafeRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
            pixels.append(contentsOf: UnsafeBufferPointer(start: line, count: width))
        }
        self.pixels = pixels
    }

    /// True when the pixel at (`x`, `y`) is `colour`, each component within `tolerance`.
    func pixel(x: Int, y: Int, is colour: PlotColour, tolerance: Int = 4) -> Bool {
        let value = pixels[y * width + x], expected = colour.bytes
        return abs(Int(value >> 16 & 0xFF) - Int(expected.red)) <= tolerance
            && abs(Int(value >> 8 & 0xFF) - Int(expected.green)) <= tolerance
            && abs(Int(value & 0xFF) - Int(expected.blue)) <= tolerance
    }

    /// The rows of column `x` between `rows` (pixel coordinates, rounded inwards) whose pixel is `colour`.
    func rows(x: Double, _ rows: ClosedRange<Double>, matching colour: PlotColour, tolerance: Int = 4) -> [Int] {
        let column = Int(x.rounded())
        return (Int(rows.lowerBound.rounded(.up))...Int(rows.upperBound.rounded(.down)))
            .filter { pixel(x: column, y: $0, is: colour, tolerance: tolerance) }
    }
}
