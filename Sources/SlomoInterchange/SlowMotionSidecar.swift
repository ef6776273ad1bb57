import Foundation
import SlomoCore

/// The slow motion a phone keeps beside a movie: a Photos adjustment (`.AAE`, identifier
/// `com.apple.video.slomo`; format 1.1 holds a binary property list, 1.0 a keyed archive, both
/// of `{"slowMotion": {"rate": …, "regions": [{"timeRange": {"start": CMTime, "duration":
/// CMTime}}]}}`) or an older `.SLM`/`.plist` sidecar holding only the regions (rate 0.25).
/// The parser is strict: anything unexpected is an error naming the file and the field.
public struct SlowMotionSidecar: Hashable, Sendable {
    /// The sidecar file.
    public var path: String
    /// What kind of sidecar it is: `AAE 1.1`, `AAE 1.0` or `SLM`.
    public var format: String
    /// The rate of the slow regions (0.25 for sidecars that do not say).
    public var rate: Rate
    /// The slow regions, in the movie's time.
    public var regions: [TimeRange]

    /// The Photos adjustment identifier of slow motion.
    public static let slowMotionIdentifier = "com.apple.video.slomo"

    /// The sidecar of the movie at `moviePath`, when one lies beside it (`IMG_0001.AAE`,
    /// `IMG_0001.aae`, `IMG_0001.SLM`, `IMG_0001.MOV.plist`, …), parsed; nil when there is none.
    public static func find(besideMovie moviePath: String) throws -> SlowMotionSidecar? {
        let url = URL(fileURLWithPath: moviePath)
        let stem = url.deletingPathExtension()
        let candidates = ["AAE", "aae", "SLM", "slm", "plist"].map { stem.appendingPathExtension($0).path }
            + [url.appendingPathExtension("plist").path]
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else { return nil }
        return try SlowMotionSidecar(contentsOf: found)
    }

    /// Parses the sidecar at `path`.
    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TimeModelError(.missingFile, "no such file, or it cannot be read", subject: path)
        }
        try self.init(data: data, path: path)
    }

    /// Parses sidecar bytes; `path` names it in errors and decides nothing.
    public init(data: Data, path: String) throws {
        self.path = path
        let fail = { (problem: String) in TimeModelError(.unparseable, problem, subject: path) }
        guard let root = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
            throw fail("is not a property list dictionary (an .AAE or .SLM sidecar is one)")
        }
        let body: [String: Any]
        if let identifier = root["adjustmentFormatIdentifier"] {
            guard identifier as? String == Self.slowMotionIdentifier else {
                throw fail("is a Photos adjustment of '\(identifier)', not slow motion (\(Self.slowMotionIdentifier))")
            }
            guard let adjustment = root["adjustmentData"] as? Data else {
                throw fail("has no adjustmentData")
            }
            let version = root["adjustmentFormatVersion"].map { "\($0)" } ?? "(none)"
            switch version {
            case "1.1":
                guard let decoded = try? PropertyListSerialization.propertyList(from: adjustment, format: nil) as? [String: Any] else {
                    throw fail("adjustmentData of format 1.1 is not a property list dictionary")
                }
                body = decoded
            case "1.0":
                let classes = [NSDictionary.self, NSArray.self, NSString.self, NSNumber.self, NSData.self]
                guard let decoded = (try? NSKeyedUnarchiver.unarchivedObject(ofClasses: classes, from: adjustment)) as? [String: Any] else {
                    throw fail("adjustmentData of format 1.0 is not a keyed archive of a dictionary")
                }
                body = decoded
            default:
                throw fail("has adjustmentFormatVersion \(version); slomo reads 1.0 and 1.1")
            }
            format = "AAE \(version)"
        } else {
            body = root
            format = "SLM"
        }
        let slowMotion = body["slowMotion"] as? [String: Any] ?? body
        guard let regionList = slowMotion["regions"] as? [Any] else {
            throw fail("has no slowMotion.regions list")
        }
        if let value = slowMotion["rate"] {
            guard let number = (value as? NSNumber)?.doubleValue, let exact = Rational.approximating(number, maximumDenominator: 10_000),
                  let rate = try? Rate(exact) else {
                throw fail("slowMotion.rate \((value as? NSNumber).map { PhoneSlowMotion.number($0.doubleValue) } ?? "\(value)") is not a rate between 1/32 and 32")
            }
            self.rate = rate
        } else {
            self.rate = try Rate(Rational(1, 4))
        }
        regions = try regionList.enumerated().map { index, item in
            let field = "slowMotion.regions[\(index)].timeRange"
            guard let range = (item as? [String: Any])?["timeRange"] as? [String: Any] else {
                throw fail("\(field) is missing")
            }
            let start = try Self.time(range["start"], field: field + ".start", fail: fail)
            let duration = try Self.time(range["duration"], field: field + ".duration", fail: fail)
            guard start >= .zero, duration > .zero else {
                throw fail("\(field) starts at \(start) s and lasts \(duration) s; a region must start at 0 or later and last")
            }
            return TimeRange(start: start, duration: duration)
        }
    }

    /// A CMTime dictionary (`value`, `timescale`, `flags` with bit 0 = valid) as a time.
    private static func time(_ object: Any?, field: String, fail: (String) -> TimeModelError) throws -> MediaTime {
        guard let fields = object as? [String: Any] else { throw fail("\(field) is missing") }
        guard let value = (fields["value"] as? NSNumber)?.int64Value, let timescale = (fields["timescale"] as? NSNumber)?.int64Value,
              timescale > 0 else {
            throw fail("\(field) needs an integer value and a positive timescale")
        }
        if let flags = (fields["flags"] as? NSNumber)?.intValue, flags & 1 == 0 {
            throw fail("\(field) is not a valid time (flags \(flags))")
        }
        return MediaTime(value: value, timescale: timescale)
    }
}
