/// A point on a canvas, in pixels from the top left.
struct Point: Hashable, Sendable {
    var x: Double
    var y: Double
}

/// An axis-aligned rectangle on a canvas, in pixels from the top left.
struct Rect: Hashable, Sendable {
    var x: Double
    var y: Double
    var width: Double
    var height: Double

    /// The rectangle between two x and two y coordinates, in any order.
    init(x0: Double, y0: Double, x1: Double, y1: Double) {
        x = min(x0, x1)
        y = min(y0, y1)
        width = abs(x1 - x0)
        height = abs(y1 - y0)
    }

    init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    var maxX: Double { x + width }
    var maxY: Double { y + height }
    var midX: Double { x + width / 2 }
    var midY: Double { y + height / 2 }
}
