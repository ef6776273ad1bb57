/// Single-precision math for the spectral engine's per-bin loops: atan2, sin and cos accurate
/// to about 2·10⁻⁷ radians (far below what a −100 dB phase error would need), and a natural
/// log accurate to 10⁻⁴ (it only orders bins). Glibc's `atan2f`, `sinf`, `cosf`, `logf` and
/// `roundf` are calls that neither inline nor vectorise, and they dominated a frame's cost.
/// These have no branches (every choice is a select), so that a loop over bins calling them
/// vectorises.

/// 1.5·2²³: for |x| < 2²², `x + roundingShift` has no fraction bits left (it is x rounded to
/// the nearest integer, ties to even, plus the shift), and its low mantissa bits are that
/// integer's, in two's complement.
private let roundingShift: Float = 12_582_912

/// `x` rounded to the nearest integer (ties to even), for |x| < 2²².
@inline(__always)
func roundedToInteger(_ x: Float) -> Float {
    (x + roundingShift) - roundingShift
}

/// `x` wrapped into −π … π.
@inline(__always)
func wrap(_ x: Float) -> Float {
    x - 2 * .pi * roundedToInteger(x * (0.5 / .pi))
}

/// `x` wrapped into −π … π, in double precision: for phase advances whose rounding would
/// recur on every frame (a steady tone's phase would drift by it).
@inline(__always)
func wrap(_ x: Double) -> Double {
    let magic = 6_755_399_441_055_744.0   // 1.5·2⁵²
    return x - 2 * .pi * ((x * (0.5 / .pi) + magic) - magic)
}

/// atan2(y, x) in −π … π (0 for the origin).
@inline(__always)
func fastAtan2(_ y: Float, _ x: Float) -> Float {
    let ax = abs(x), ay = abs(y)
    let swap = ay > ax
    let hi = swap ? ay : ax
    var z = (swap ? ax : ay) / hi
    // atan z = π/6 + atan((z√3 − 1) / (z + √3)), which brings z below tan 15°.
    let reduced = z > 0.267_949_19
    z = reduced ? (z * 1.732_050_8 - 1) / (z + 1.732_050_8) : z
    let offset: Float = reduced ? .pi / 6 : 0
    let z2 = z * z
    var a = z * (1 + z2 * (-1.0 / 3 + z2 * (1.0 / 5 + z2 * (-1.0 / 7 + z2 * (1.0 / 9 - z2 / 11))))) + offset
    a = swap ? .pi / 2 - a : a
    a = x < 0 ? .pi - a : a
    a = y < 0 ? -a : a
    return hi > 0 ? a : 0
}

/// sin x and cos x for |x| < 2²⁰, reduced by quarter turns.
@inline(__always)
func fastSinCos(_ x: Float) -> (sin: Float, cos: Float) {
    // `roundedToInteger`, keeping the shifted sum: its low bits are the quarter turns (mod 4).
    let shifted = x * (2 / .pi) + roundingShift
    let quarter = shifted - roundingShift
    let turn = shifted.bitPattern & 3
    // π/2 in two parts, so that the reduction stays exact.
    let r = (x - quarter * 1.570_796_4) + quarter * 4.371_139e-8
    let r2 = r * r
    let s = r * (1 + r2 * (-1.0 / 6 + r2 * (1.0 / 120 + r2 * (-1.0 / 5040 + r2 / 362_880))))
    let c = 1 + r2 * (-0.5 + r2 * (1.0 / 24 + r2 * (-1.0 / 720 + r2 * (1.0 / 40320 - r2 / 3_628_800))))
    // Quarter turns 1 and 3 swap sine and cosine; 2 and 3 negate the sine, 1 and 2 the cosine.
    let swapped = turn & 1 != 0
    let sine = swapped ? c : s, cosine = swapped ? s : c
    return (turn & 2 != 0 ? -sine : sine, (turn &+ 1) & 2 != 0 ? -cosine : cosine)
}

/// Natural log of a positive normal `x` (−∞ for 0), from its exponent and a polynomial in its
/// mantissa.
@inline(__always)
func fastLog(_ x: Float) -> Float {
    let bits = x.bitPattern
    let exponent = Float(Int32(bitPattern: (bits >> 23) & 0xFF) - 127)
    // m in [1, 2); log m by the series of atanh: log m = 2·atanh((m − 1)/(m + 1)).
    let m = Float(bitPattern: (bits & 0x007F_FFFF) | 0x3F80_0000)
    let t = (m - 1) / (m + 1), t2 = t * t
    let logM = 2 * t * (1 + t2 * (1.0 / 3 + t2 * (1.0 / 5 + t2 * (1.0 / 7))))
    return x > 0 ? exponent * 0.693_147_2 + logM : -.infinity
}
