import Foundation
import SlomoCore

// SlomoCore's `TimePitchAlgorithm` (the time model names the algorithm of each section; there
// is one enum, named as AVFoundation names it) with the audio engine's knowledge added: rate
// ranges, snapping, processors.
//
// | case | CLI | engine | rates |
// |---|---|---|---|
// | `spectral` | `spectral` | slomo's phase-gradient engine (or Rubber Band R3) | 1/32 … 32 |
// | `timeDomain` | `time-domain` | slomo's WSOLA | 1/32 … 32, best within 0.5 … 2 |
// | `varispeed` | `varispeed` | libsamplerate sinc | 1/32 … 32, pitch follows speed |
// | `lowLatency` (AVFoundation's `lowLatency`) | `low-latency` | slomo's fixed-grain splicer | 0.5 … 2, snapped |

extension TimePitchAlgorithm {
    /// Smallest rate this algorithm accepts.
    public var minimumRate: Double { self == .lowLatency ? 0.5 : 1.0 / 32 }
    /// Largest rate this algorithm accepts.
    public var maximumRate: Double { self == .lowLatency ? 2 : 32 }
    /// Rates where the algorithm works at its best (`timeDomain` is usable beyond them, but
    /// its sequence and seek lengths stop adapting outside 0.5 … 2).
    public var recommendedRates: ClosedRange<Double> {
        switch self {
        case .spectral, .varispeed: return (1.0 / 32)...32
        case .timeDomain, .lowLatency: return 0.5...2
        }
    }

    /// Whether `rate` is inside `recommendedRates` (for warnings such as "time-domain works
    /// best between 0.5 and 2").
    public func isRecommended(_ rate: Double) -> Bool { recommendedRates.contains(rate) }

    /// The rates `lowLatency` plays at; other rates snap to the nearest one.
    public static let lowLatencyRates: [Double] = [0.5, 2.0 / 3, 0.8, 1, 1.25, 1.5, 2]

    /// Checks `rate` for this algorithm and returns the rate it will really play at (the
    /// snapped rate for `lowLatency`, `rate` itself otherwise).
    ///
    /// Throws `AudioError` (`.invalidRate`) for zero, negative, NaN or infinite rates and
    /// (`.rateOutOfRange`) for rates outside `minimumRate … maximumRate`, naming algorithms
    /// that can play the rate.
    public func validatedRate(_ rate: Double) throws -> Double {
        guard rate.isFinite else {
            throw AudioError(.invalidRate, "rate \(rate) is not a number; use a positive rate such as 0.5 or 2")
        }
        guard rate > 0 else {
            throw AudioError(.invalidRate,
                             "rate \(Self.format(rate)) must be greater than 0 (0.25 = four times slower, 2 = twice as fast)")
        }
        let tolerance = 1e-9  // so that 1/32 computed in floating point is accepted
        guard rate >= minimumRate * (1 - tolerance), rate <= maximumRate * (1 + tolerance) else {
            if self == .lowLatency {
                throw AudioError(.rateOutOfRange, SettingIssue(.audioAlgorithm, rawValue, "outside the low-latency algorithm's "
                                 + "range 0.5–2; use {audioAlgorithm} spectral, time-domain or varispeed for rates from 1/32 to 32",
                                 subject: "rate \(Self.format(rate))"))
            }
            throw AudioError(.rateOutOfRange,
                             "rate \(Self.format(rate)) is outside the \(rawValue) algorithm's range 1/32–32")
        }
        if self == .lowLatency { return Self.snapLowLatency(rate) }
        return min(max(rate, minimumRate), maximumRate)
    }

    /// The nearest of `lowLatencyRates`, compared on a logarithmic scale.
    public static func snapLowLatency(_ rate: Double) -> Double {
        lowLatencyRates.min { abs(log2($0 / rate)) < abs(log2($1 / rate)) } ?? 1
    }

    static func format(_ x: Double) -> String {
        let s = String(x)
        return s.hasSuffix(".0") ? String(s.dropLast(2)) : s
    }
}
