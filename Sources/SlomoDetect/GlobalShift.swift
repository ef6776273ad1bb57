/// How the whole picture moved between two frames (a pan, a tilt, a shake), in analysis
/// pixels, estimated from the pictures' column and row projections: each is matched against
/// the previous one's over a range of shifts, and the best match refined between pixels with a
/// parabola. Objects moving over a still background barely move the projections; a camera
/// that moves moves all of them.
struct GlobalShift: Equatable {
    var dx: Float
    var dy: Float

    static let none = GlobalShift(dx: 0, dy: 0)

    /// Shifts searched, in analysis pixels each way (at 240 fps a fast pan moves a few).
    static let range = 8

    /// The shift that carries `previous` onto `current`.
    static func between(_ previous: GrayPicture, _ current: GrayPicture) -> GlobalShift {
        let a = previous.projections, b = current.projections
        return GlobalShift(dx: best(a.columns, b.columns), dy: best(a.rows, b.rows))
    }

    /// The shift s (current[i] ≈ previous[i − s]) minimising the mean absolute difference over
    /// the overlap, to a fraction of a pixel.
    private static func best(_ previous: [Float], _ current: [Float]) -> Float {
        let count = previous.count
        let range = min(Self.range, count / 4)
        guard range > 0 else { return 0 }
        func cost(_ shift: Int) -> Float {
            var sum: Float = 0
            let start = max(0, shift) + range, end = min(count, count + shift) - range
            guard end > start else { return .infinity }
            for i in start..<end { sum += abs(current[i] - previous[i - shift]) }
            return sum / Float(end - start)
        }
        let costs = (-range...range).map(cost)
        let index = costs.indices.min { costs[$0] < costs[$1] }!
        var shift = Float(index - range)
        if index > 0 && index < costs.count - 1 {
            let left = costs[index - 1], middle = costs[index], right = costs[index + 1]
            let curvature = left - 2 * middle + right
            if curvature > 0 { shift += 0.5 * (left - right) / curvature }
        }
        return shift
    }
}
