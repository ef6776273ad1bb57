import SlomoCore

/// Where a source picture goes in the output frame, with AVFoundation's scaling modes:
/// `fit` scales down to fit inside the box and never up, keeping the aspect ratio (the output
/// is the scaled picture, no bars); `resize` fills the box ignoring the aspect ratio; `aspect`
/// scales (up or down) to fit and letterboxes with black; `aspect-fill` scales to fill the box
/// and crops the overflow, centred. All sizes and offsets are even (4:2:0 chroma).
struct OutputPicture: Hashable {
    /// The output frame size.
    let width: Int
    let height: Int
    /// The size the source picture is scaled to.
    let scaledWidth: Int
    let scaledHeight: Int
    /// Where the scaled picture's top-left corner lands in the frame (negative: cropped).
    let x: Int
    let y: Int

    /// The output picture of a `sourceWidth`×`sourceHeight` source with square pixels after
    /// applying `sampleAspectRatio`, into `size` (nil: the source's own size, made even).
    init(sourceWidth: Int, sourceHeight: Int, sampleAspectRatio: Rational? = nil,
         size: OutputSettings.Size?, scaling: OutputSettings.Scaling) {
        let sar = sampleAspectRatio.flatMap { $0.numerator > 0 ? $0.doubleValue : nil } ?? 1
        let displayWidth = Double(sourceWidth) * sar, displayHeight = Double(sourceHeight)
        func even(_ value: Double) -> Int { max(2, Int((value / 2).rounded()) * 2) }
        guard let size else {
            let w = even(displayWidth), h = even(displayHeight)
            self.init(width: w, height: h, scaledWidth: w, scaledHeight: h, x: 0, y: 0)
            return
        }
        let box = (w: Double(size.width), h: Double(size.height))
        switch scaling {
        case .resize:
            self.init(width: size.width, height: size.height, scaledWidth: size.width, scaledHeight: size.height, x: 0, y: 0)
        case .fit:
            let factor = min(1, min(box.w / displayWidth, box.h / displayHeight))
            let w = min(even(displayWidth * factor), size.width), h = min(even(displayHeight * factor), size.height)
            self.init(width: w, height: h, scaledWidth: w, scaledHeight: h, x: 0, y: 0)
        case .aspect:
            let factor = min(box.w / displayWidth, box.h / displayHeight)
            let w = min(even(displayWidth * factor), size.width), h = min(even(displayHeight * factor), size.height)
            self.init(width: size.width, height: size.height, scaledWidth: w, scaledHeight: h,
                      x: (size.width - w) / 4 * 2, y: (size.height - h) / 4 * 2)
        case .aspectFill:
            let factor = max(box.w / displayWidth, box.h / displayHeight)
            let w = max(even(displayWidth * factor), size.width), h = max(even(displayHeight * factor), size.height)
            self.init(width: size.width, height: size.height, scaledWidth: w, scaledHeight: h,
                      x: -((w - size.width) / 4 * 2), y: -((h - size.height) / 4 * 2))
        }
    }

    private init(width: Int, height: Int, scaledWidth: Int, scaledHeight: Int, x: Int, y: Int) {
        self.width = width
        self.height = height
        self.scaledWidth = scaledWidth
        self.scaledHeight = scaledHeight
        self.x = x
        self.y = y
    }

    /// The libavfilter chain from a source picture of that size to this output picture.
    func filter(sourceWidth: Int, sourceHeight: Int) -> String {
        var steps: [String] = []
        if scaledWidth != sourceWidth || scaledHeight != sourceHeight {
            steps.append("scale=\(scaledWidth):\(scaledHeight):flags=bicubic")
        }
        if x > 0 || y > 0 {
            steps.append("pad=\(width):\(height):\(x):\(y):color=black")
        } else if x < 0 || y < 0 {
            steps.append("crop=\(width):\(height):\(-x):\(-y)")
        }
        return steps.joined(separator: ",")
    }
}
