/// Shutter emulation for a constant-frame-rate export: each output frame is the mean of the
/// light that reached the sensor while its shutter was open, `angle`/360 of the output frame
/// interval from the frame's own time, mapped to source time through the time map (so it
/// follows ramps): the source pictures inside that window, each weighted by how long it was on
/// screen there. A speed-up then blurs as a camera at the output rate would have drawn it,
/// instead of strobing.
public struct Shutter: Hashable, Sendable, CustomStringConvertible {
    /// The shutter angle in degrees, 0…360; 0 takes each frame at an instant (no blur).
    public var angle: Rational
    /// How many pictures an exposure that spans less than two source pictures (a slow section)
    /// is made of, interpolated by optical flow across it; 1 keeps such frames as they are.
    public var samples: Int

    /// Frames taken at an instant: no blur.
    public static let instant = Shutter(angle: Rational(0))

    public init(angle: Rational, samples: Int = 1) {
        self.angle = angle
        self.samples = samples
    }

    /// The angles allowed, in degrees.
    public static let angles = 0.0...360
    /// The sample counts allowed.
    public static let sampleCounts = 1...64

    /// True when frames are taken at an instant.
    public var isInstant: Bool { angle.numerator == 0 }

    /// How long each frame's shutter is open at `frameRate`: `angle`/360 of a frame interval.
    public func exposure(at frameRate: Rational) -> Rational {
        angle / Rational(360) / frameRate
    }

    /// `180°`, or `180° ×4` with interpolated samples.
    public var description: String {
        Rate.text(angle) + "°" + (samples > 1 ? " ×\(samples)" : "")
    }
}
