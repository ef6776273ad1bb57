import CFFmpeg
import SlomoCore

extension Rational {
    /// FFmpeg's `AVRational`; `nil` for 0/0 ("unknown" in FFmpeg).
    init?(_ value: AVRational) {
        guard value.den != 0 else { return nil }
        self.init(Int64(value.num), Int64(value.den))
    }

    /// The same value as FFmpeg's `AVRational` (the parts must fit in 32 bits).
    var avRational: AVRational { AVRational(num: Int32(numerator), den: Int32(denominator)) }
}

extension AVRational {
    /// The value as an exact `Rational`; 0/0 (FFmpeg's "unknown") becomes 0/1.
    var rational: Rational { Rational(self) ?? Rational(0) }
}
