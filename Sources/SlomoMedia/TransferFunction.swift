import Foundation

/// How a picture's coded values relate to light (its colour tag `transfer`), for averaging
/// pictures in light rather than in coded values: `linear(_:)` undoes the encoding, `encoded(_:)`
/// re-applies it, both on values normalised to 0…1.
///
/// SDR (BT.709, BT.601, BT.2020, and untagged) inverts the BT.709 camera curve, giving the light
/// the camera saw; sRGB its own curve; HLG its scene-light OETF (ARIB STD-B67); PQ its EOTF
/// (SMPTE ST 2084), light normalised to 10,000 cd/m².
public enum TransferFunction: Sendable, Hashable {
    case bt709, srgb, hlg, pq

    /// The function of an FFmpeg transfer name (`bt709`, `arib-std-b67`, `smpte2084`…); BT.709's
    /// for names that are unknown or missing.
    public init(named name: String?) {
        switch name {
        case "arib-std-b67": self = .hlg
        case "smpte2084": self = .pq
        case "iec61966-2-1", "iec61966_2_1": self = .srgb
        default: self = .bt709
        }
    }

    /// Light (0…1) of the coded value `value` (0…1).
    public func linear(_ value: Double) -> Double {
        let v = min(max(value, 0), 1)
        switch self {
        case .bt709:
            return v < 0.081 ? v / 4.5 : pow((v + 0.099) / 1.099, 1 / 0.45)
        case .srgb:
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        case .hlg:
            let (a, b, c) = Self.hlgConstants
            return v <= 0.5 ? v * v / 3 : (exp((v - c) / a) + b) / 12
        case .pq:
            let (m1, m2, c1, c2, c3) = Self.pqConstants
            let p = pow(v, 1 / m2)
            return pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
        }
    }

    /// The coded value (0…1) of light `light` (0…1).
    public func encoded(_ light: Double) -> Double {
        let l = min(max(light, 0), 1)
        switch self {
        case .bt709:
            return l < 0.018 ? 4.5 * l : 1.099 * pow(l, 0.45) - 0.099
        case .srgb:
            return l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055
        case .hlg:
            let (a, b, c) = Self.hlgConstants
            return l <= 1.0 / 12 ? (3 * l).squareRoot() : a * log(12 * l - b) + c
        case .pq:
            let (m1, m2, c1, c2, c3) = Self.pqConstants
            let p = pow(l, m1)
            return pow((c1 + c2 * p) / (1 + c3 * p), m2)
        }
    }

    private static let hlgConstants = (a: 0.17883277, b: 1 - 4 * 0.17883277, c: 0.5 - 0.17883277 * log(4 * 0.17883277))
    private static let pqConstants = (m1: 2610.0 / 16384, m2: 2523.0 / 4096 * 128, c1: 3424.0 / 4096,
                                      c2: 2413.0 / 4096 * 32, c3: 2392.0 / 4096 * 32)
}
