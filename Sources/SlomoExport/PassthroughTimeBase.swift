import SlomoCore

/// Chooses the output time base for copied packets: one in which every timestamp the map
/// produces is exact, so that nothing is rounded and DTS cannot collide (a 4x speed-up of
/// 240 fps in 1/600 collided 180 times).
enum PassthroughTimeBase {
    /// The largest timescale chosen: the mov muxer writes 32-bit timescales and durations.
    static let largestTimescale: Int64 = 1 << 30
    /// Ramps have no exact rational output times; they are rounded to at most this interval.
    static let rampResolution: Int64 = 1_000_000

    /// `1/T` where T is the least common multiple of what constant segments need: the input
    /// time base's denominator (and the origin's) times each segment rate's numerator, and the
    /// denominators of segment starts. With ramps, or when that grows too large, T is the
    /// smallest multiple of the input's denominator that resolves a microsecond.
    static func choose(for map: TimeMap, inputTimeBase: Rational, origin: MediaTime) -> (timeBase: Rational, isExact: Bool) {
        let input = inputTimeBase.denominator
        var scale: Int64? = lcm(input, origin.seconds.denominator)
        for segment in map.segments {
            if segment.isHold, let current = scale {
                // A held packet's neighbours: the hold's edges must be exact too.
                scale = lcm(current, segment.output.end.seconds.denominator).flatMap { $0 <= largestTimescale ? $0 : nil }
                continue
            }
            guard let current = scale, let rate = segment.constantSpeed else { scale = nil; break }
            // A reversed segment maps from its end.
            let sourceScale = lcm(lcm(current, segment.source.start.seconds.denominator), segment.source.end.seconds.denominator)
            let stretched = sourceScale.flatMap { $0.multipliedReportingOverflow(by: rate.value.numerator) }
                .flatMap { $0.overflow ? nil : $0.partialValue }
            scale = stretched.flatMap { lcm($0, segment.output.start.seconds.denominator) }
                .flatMap { $0 <= largestTimescale ? $0 : nil }
        }
        if let scale { return (Rational(1, scale), true) }
        let multiple = (rampResolution + input - 1) / input
        return (Rational(1, input * multiple), false)
    }

    /// Least common multiple, nil on overflow.
    static func lcm(_ a: Int64?, _ b: Int64) -> Int64? {
        guard let a else { return nil }
        let product = (a / Rational.gcd(a, b)).multipliedReportingOverflow(by: b)
        return product.overflow ? nil : product.partialValue
    }
}

private extension TimeMap.Segment {
    /// The one speed of a constant or reversed segment; nil for ramps and holds.
    var constantSpeed: Rate? {
        switch shape {
        case .constant(let rate), .reversed(let rate): rate
        case .ramp, .eased, .hold: nil
        }
    }
}
