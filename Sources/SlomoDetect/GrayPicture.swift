import SlomoMedia

/// A decoded picture reduced to what motion analysis needs: its brightness, small (at most
/// `GrayPicture.width` pixels wide), as floats.
struct GrayPicture {
    /// The analysis width: enough for a ball of a few source pixels to move a whole pixel here
    /// within a few frames, small enough that a picture costs a few microseconds.
    static let width = 192

    let width: Int
    let height: Int
    let pixels: [Float]
    /// The mean brightness of each column and of each row: what a pan or a shake moves as a
    /// whole, from which `GlobalShift` estimates it.
    let projections: (columns: [Float], rows: [Float])

    /// The luma of `frame` (a `gray` frame of the analysis size).
    init(_ frame: Frame) {
        width = frame.width
        height = frame.height
        let stride = frame.lineSize(plane: 0)
        let data = frame.planeData(0)!
        var pixels = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { pixels[y * width + x] = Float(data[y * stride + x]) }
        }
        self.pixels = pixels
        var columns = [Float](repeating: 0, count: width), rows = [Float](repeating: 0, count: height)
        for y in 0..<height {
            for x in 0..<width {
                columns[x] += pixels[y * width + x]
                rows[y] += pixels[y * width + x]
            }
        }
        let (rowCount, columnCount) = (Float(height), Float(width))
        projections = (columns.map { $0 / rowCount }, rows.map { $0 / columnCount })
    }

    /// The analysis size for a `sourceWidth`×`sourceHeight` video: its aspect, at most
    /// `GrayPicture.width` wide, even sizes.
    static func size(sourceWidth: Int, sourceHeight: Int) -> (width: Int, height: Int) {
        let width = min(Self.width, sourceWidth) & ~1
        return (max(2, width), max(2, (sourceHeight * width / max(1, sourceWidth)) & ~1))
    }

    /// The brightness at (`x`, `y`) read between pixels (bilinear), clamped to the picture.
    func sample(x: Float, y: Float) -> Float {
        let x = min(max(x, 0), Float(width - 1)), y = min(max(y, 0), Float(height - 1))
        let x0 = Int(x), y0 = Int(y)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let fx = x - Float(x0), fy = y - Float(y0)
        let top = pixels[y0 * width + x0] * (1 - fx) + pixels[y0 * width + x1] * fx
        let bottom = pixels[y1 * width + x0] * (1 - fx) + pixels[y1 * width + x1] * fx
        return top * (1 - fy) + bottom * fy
    }
}
