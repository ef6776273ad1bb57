import Foundation
import SlomoCore
import SlomoMedia

/// The slow motion a phone would show for a movie, the way Photos (or an Android gallery)
/// plays it: from its sidecar when there is one, else from the capture frame rate and Photos'
/// defaults. `sections` turns it into sections of a composition.
///
/// Photos' defaults: below 85 fps a clip plays at rate 1; 85–210 fps at 0.25; from 210 fps at
/// 0.125; exports are 30 fps (25 fps for 85–105 fps sources). A new clip's slow region leaves
/// the first and last tenth at full speed, and every region eases in and out over `rampLength`.
public struct PhoneSlowMotion: Hashable, Sendable {
    /// Where the slow motion was found.
    public enum Origin: Hashable, Sendable, CustomStringConvertible {
        /// A sidecar file beside the movie.
        case sidecar(SlowMotionSidecar)
        /// The movie's capture-rate tag, with Photos' defaults.
        case captureRate(Double)
        /// The movie's capture-rate tag for the rate, and the moment `MomentDetector` found at
        /// this time for the region, in place of Photos' middle of the clip.
        case captureRateAndMoment(Double, MediaTime)

        /// `"IMG_0001.AAE (AAE 1.1)"`, `"the capture-rate tag (240 fps) and Photos' defaults"` or
        /// `"the capture-rate tag (240 fps) and the moment detected at 1.200 s"`.
        public var description: String {
            switch self {
            case .sidecar(let sidecar):
                return "\(URL(fileURLWithPath: sidecar.path).lastPathComponent) (\(sidecar.format))"
            case .captureRate(let fps):
                return "the capture-rate tag (\(PhoneSlowMotion.number(fps)) fps) and Photos' defaults"
            case .captureRateAndMoment(let fps, let moment):
                return "the capture-rate tag (\(PhoneSlowMotion.number(fps)) fps) and the moment detected at \(moment.formattedSeconds()) s"
            }
        }
    }

    /// Where the slow motion came from.
    public var origin: Origin
    /// The rate of the slow regions.
    public var rate: Rate
    /// The slow regions, in the movie's time.
    public var regions: [TimeRange]
    /// The frame rate Photos exports the clip at.
    public var exportFrameRate: Rational
    /// True when the file's timestamps are already slowed (stored frame rate well below the
    /// capture rate), as some Android phones store slow motion.
    public var alreadySlowed: Bool
    /// The capture frame rate, when a tag says it.
    public var captureFrameRate: Double?

    /// Source time over which each region eases in and out.
    public static let rampLength = MediaTime(value: 1, timescale: 5)

    /// The phone slow motion of `file`: its sidecar, else its capture-rate tag; nil when it has
    /// neither. Throws the sidecar's parse errors.
    public static func detect(in file: MediaFile) throws -> PhoneSlowMotion? {
        let stored = file.clipFrameRate?.doubleValue
        let capture = file.captureFrameRate
        let slowed = capture.map { fps in stored.map { $0 < fps * 0.9 } ?? false } ?? false
        let frameRate = capture ?? stored ?? 30
        let exportRate = (85..<105).contains(frameRate) ? Rational(25) : Rational(30)
        if let sidecar = try SlowMotionSidecar.find(besideMovie: file.path) {
            return PhoneSlowMotion(origin: .sidecar(sidecar), rate: sidecar.rate, regions: sidecar.regions,
                                   exportFrameRate: exportRate, alreadySlowed: slowed, captureFrameRate: capture)
        }
        guard let capture else { return nil }
        let rate: Rate = capture < 85 ? .normal : try Rate(capture < 210 ? Rational(1, 4) : Rational(1, 8))
        var regions: [TimeRange] = []
        if rate != .normal, let duration = file.clipDuration {
            let margin = MediaTime(seconds: duration.seconds / Rational(10))
            regions = [TimeRange(start: margin, end: duration - margin)]
        }
        return PhoneSlowMotion(origin: .captureRate(capture), rate: rate, regions: regions,
                               exportFrameRate: exportRate, alreadySlowed: slowed, captureFrameRate: capture)
    }

    /// Whether the region is Photos' default guess (no sidecar, a slow capture rate): the
    /// moment a detector finds is a better one (`around(moment:region:)`).
    public var regionIsGuessed: Bool {
        guard case .captureRate = origin else { return false }
        return rate != .normal && !alreadySlowed
    }

    /// This slow motion with its one region set to `region` around a moment detected at
    /// `moment`, in place of Photos' guess.
    public func around(moment: MediaTime, region: TimeRange) -> PhoneSlowMotion {
        var found = self
        if case .captureRate(let fps) = origin { found.origin = .captureRateAndMoment(fps, moment) }
        found.regions = [region]
        return found
    }

    /// The sections that play the regions at `rate`, with ramps (shortened to fit short
    /// regions), in section syntax; cut to `duration`. Empty when the file is already slowed
    /// (it plays slow as stored).
    public func sectionTexts(clipDuration duration: MediaTime) -> [String] {
        guard !alreadySlowed, rate != .normal else { return [] }
        return regions.compactMap { region -> String? in
            guard region.start < duration else { return nil }
            let range = TimeRange(start: region.start, end: MediaTime.min(region.end, duration))
            let ramp = MediaTime.min(Self.rampLength, MediaTime(seconds: range.duration.seconds / Rational(3)))
            let spec = SectionSpec(start: .time(range.start), end: .time(range.end), rate: rate, rampIn: ramp, rampOut: ramp)
            return spec.description
        }
    }

    /// The section that plays an already slowed file at real time: the whole clip at
    /// capture rate ÷ stored rate. Nil when the file is not slowed.
    public func realTimeSectionText(storedFrameRate: Rational?) -> String? {
        guard alreadySlowed, let capture = captureFrameRate, let stored = storedFrameRate,
              let ratio = Rational.approximating(capture / stored.doubleValue, maximumDenominator: 1000) else { return nil }
        return "0-endx\(ratio)"
    }

    /// One line for people: where it came from and what it does.
    public var summary: String {
        if alreadySlowed {
            return "slow motion from \(origin): the file is already slowed (stored below its capture rate)"
        }
        let list = regions.map { "\($0.start.formattedSeconds())-\($0.end.formattedSeconds()) s" }.joined(separator: ", ")
        return "slow motion from \(origin): rate \(rate), \(regions.count) region(s)\(list.isEmpty ? "" : " (\(list))"), "
            + "export at \(exportFrameRate) fps"
    }

    /// The JSON form `slomo inspect --json` prints under `phone` (docs/inspect-json.md).
    public struct JSON: Encodable, Sendable {
        /// `sidecar`, `captureRate` or `detectedMoment`.
        public var origin: String
        /// The sidecar's path and format (`AAE 1.1`, `AAE 1.0`, `SLM`), when there is one.
        public var sidecar: String?, sidecarFormat: String?
        /// Exact rate (`1/8`), regions as exact second strings, export frame rate.
        public var rate: String
        public var regions: [[String: String]]
        public var exportFrameRate: String
        public var alreadySlowed: Bool
    }

    /// The JSON form of this slow motion.
    public var json: JSON {
        var sidecar: SlowMotionSidecar?
        var kind = "captureRate"
        switch origin {
        case .sidecar(let found): (sidecar, kind) = (found, "sidecar")
        case .captureRateAndMoment: kind = "detectedMoment"
        case .captureRate: break
        }
        return JSON(origin: kind, sidecar: sidecar?.path, sidecarFormat: sidecar?.format,
                    rate: rate.value.description,
                    regions: regions.map { ["start": $0.start.exactDescription, "end": $0.end.exactDescription] },
                    exportFrameRate: exportFrameRate.description, alreadySlowed: alreadySlowed)
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
