import SlomoMedia

/// How many pictures a queue between two pipeline stages may hold: as many as fit in a byte
/// budget, within bounds. Counting frames alone would let a 4K export hold four times the
/// memory of a 1080p one in the same queue.
struct PictureBudget {
    /// Bytes the queue's pictures may take together.
    let bytes: Int
    /// The fewest and most pictures, whatever their size.
    let pictures: ClosedRange<Int>

    /// The queue capacity for pictures of `width`×`height` in the pixel format named
    /// `pixelFormat`.
    func capacity(width: Int, height: Int, pixelFormat: String) -> Int {
        let size = Self.pictureBytes(width: width, height: height, pixelFormat: pixelFormat)
        return min(max(bytes / max(size, 1), pictures.lowerBound), pictures.upperBound)
    }

    /// Approximate bytes of one picture: one or two bytes a sample (by bit depth), luma plus
    /// chroma counted as 4:2:2 (exact for 4:2:2, generous for 4:2:0, short for 4:4:4).
    static func pictureBytes(width: Int, height: Int, pixelFormat: String) -> Int {
        let depth = PixelFormat(name: pixelFormat)?.bitDepth ?? 8
        return width * height * 2 * (depth > 8 ? 2 : 1)
    }
}
