import Foundation
import SlomoCore

/// How far slomo moves a sound's pitch on its own, its length kept: ±24 semitones (a
/// frequency ratio of 1/4 … 4), for exports, stretches and the player alike.
public enum PitchShift {
    /// The largest shift, up or down, in semitones.
    public static let maximumSemitones = Section.maximumPitch

    /// The frequency ratio of `semitones` (12 semitones: 2).
    public static func ratio(semitones: Double) -> Double { pow(2, semitones / 12) }
}
