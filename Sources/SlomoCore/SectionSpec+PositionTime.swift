extension SectionSpec.Position {
    /// The source time this position names in `clip` (`end` is its end) with frame numbers and
    /// SMPTE timecodes at `frameRate`: what a section edge resolves to, for commands that take
    /// one instant in the same syntax (`slomo still --at 3`, `--at 00:00:03.000`, `--at f720`).
    /// Throws `TimeModelError` (`.invalidValue`) for a frame or timecode without a frame rate.
    public func sourceTime(in clip: TimeRange, frameRate: Rational?) throws -> MediaTime {
        try time(in: clip, frameRate: frameRate)
    }
}
