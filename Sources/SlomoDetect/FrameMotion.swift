import SlomoCore

/// What changed between one frame and the one before it, once the camera's own movement is
/// taken out: the picture is cut into blocks, each block's mean absolute difference measured
/// against the previous picture shifted by the global shift. Action is local (a few blocks
/// change much more than the rest: `activity`); a pan leaves little once compensated, and a
/// cut changes nearly every block (`spread`).
public struct FrameMotion: Sendable, Hashable, Codable {
    /// The frame's presentation time, in the stream's time (from the file's start).
    public var time: MediaTime
    /// How much changed locally: each block's change beyond what is typical of the frame's
    /// blocks (the median and 3 median absolute deviations), summed (8-bit levels × blocks). It grows with the size and speed of what moves, and
    /// does not depend on where the block grid cuts it.
    public var activity: Double
    /// The median block change: high for a cut or a flash, near zero for action on a still scene.
    public var spread: Double
    /// The camera's estimated movement from the previous frame, in source pixels.
    public var panX: Double
    public var panY: Double
}

extension FrameMotion {
    /// Blocks across the analysis picture's width (rows keep them square).
    static let blocksAcross = 12

    /// The motion of `current` after `previous`, at `time`; `scale` turns analysis pixels into
    /// source pixels. The global shift is kept only when it explains most of the picture better
    /// than no shift: on a plain background the projections follow the one thing that moves,
    /// and compensating that would hide the action.
    init(time: MediaTime, previous: GrayPicture, current: GrayPicture, scale: Double) {
        let estimate = GlobalShift.between(previous, current)
        let still = Self.blockChanges(previous, current, shift: .none)
        var shift = GlobalShift.none, changes = still
        // A shift under a quarter of a pixel moves too little to be worth a second pass.
        if abs(estimate.dx) >= 0.25 || abs(estimate.dy) >= 0.25 {
            let moved = Self.blockChanges(previous, current, shift: estimate)
            if Self.median(moved) + 0.5 < Self.median(still) { (shift, changes) = (estimate, moved) }
        }
        let median = Self.median(changes)
        // What stands out of the frame's spread of block changes: above its median by more
        // than 3 median absolute deviations (and 2 levels), so that a picture-wide residue
        // (a pan compensated to a fraction of a pixel, grain) adds nothing.
        let deviation = Self.median(changes.map { abs($0 - median) })
        let threshold = median + max(2, 3 * deviation)
        let local = changes.reduce(Float(0)) { $0 + max(0, $1 - threshold) }
        self.init(time: time, activity: Double(local), spread: Double(median),
                  panX: Double(shift.dx) * scale, panY: Double(shift.dy) * scale)
    }

    private static func median(_ values: [Float]) -> Float {
        values.isEmpty ? 0 : values.sorted()[values.count / 2]
    }

    /// Each block's mean absolute difference between `current` and `previous` moved by `shift`;
    /// pixels the shift brings in from outside the previous picture are left out, and so are
    /// blocks left with less than half their pixels.
    private static func blockChanges(_ previous: GrayPicture, _ current: GrayPicture, shift: GlobalShift) -> [Float] {
        let blockSize = max(4, current.width / blocksAcross)
        let across = current.width / blockSize, down = max(1, current.height / blockSize)
        var changes: [Float] = []
        changes.reserveCapacity(across * down)
        let maxX = Float(current.width - 1), maxY = Float(current.height - 1)
        for by in 0..<down {
            for bx in 0..<across {
                var sum: Float = 0, count = 0
                for y in (by * blockSize)..<min(current.height, (by + 1) * blockSize) {
                    for x in (bx * blockSize)..<min(current.width, (bx + 1) * blockSize) {
                        let sx = Float(x) - shift.dx, sy = Float(y) - shift.dy
                        guard sx >= 0, sy >= 0, sx <= maxX, sy <= maxY else { continue }
                        let before = shift == .none ? previous.pixels[y * current.width + x] : previous.sample(x: sx, y: sy)
                        sum += abs(current.pixels[y * current.width + x] - before)
                        count += 1
                    }
                }
                if count * 2 >= blockSize * blockSize { changes.append(sum / Float(count)) }
            }
        }
        return changes
    }
}
