import Foundation
import SlomoCore

/// Reads an OpenTimelineIO timeline (`.otio` JSON) into a `Composition`: the first video
/// track's clips, each a source range played at the rate of its `LinearTimeWarp` effects, or a
/// `FreezeFrame` (a `Freeze` of any length), with the convention `OTIOWriter` writes (the
/// media used is `duration × |time_scalar|` from `source_range.start_time`; a negative scalar
/// plays it backwards, a reversed section). Neighbouring clips of one file that continue each
/// other become one clip with sections; where slomo wrote the timeline, its
/// `metadata.slomo` restores sections and ramps exactly.
///
/// What slomo cannot honour is an error naming the clip: gaps, transitions, nested stacks,
/// disabled clips, effects other than time warps and freezes, a zero speed, media
/// that is not a local file, and clips in a second video track. Audio tracks are not read:
/// slomo renders sound from the video clips' files through the same time map.
public struct OTIOReader {
    /// What the reader needs to know of a source file: its duration and frame rate.
    public typealias SourceLookup = (String) throws -> EditScript.SourceInfo

    private let path: String
    private let baseDirectory: String
    private let sources: SourceLookup

    /// A reader of the timeline at `path` (named in errors; relative media paths resolve
    /// against its folder), describing sources with `sources`.
    public init(path: String, sources: @escaping SourceLookup) {
        self.path = path
        self.baseDirectory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        self.sources = sources
    }

    /// The composition of the file at `path`.
    public func composition() throws -> Composition {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TimeModelError(.missingFile, "no such file, or it cannot be read", subject: path)
        }
        return try composition(data: data)
    }

    /// The composition of the OTIO JSON `data`.
    public func composition(data: Data) throws -> Composition {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw TimeModelError(.unparseable, "is not OpenTimelineIO JSON", subject: path)
        }
        guard Self.schema(root)?.hasPrefix("Timeline.") == true else {
            throw TimeModelError(.wrongType, "holds a \(Self.schema(root) ?? "document") where a Timeline was expected",
                                 subject: path)
        }
        let stack = root["tracks"] as? [String: Any]
        let videoTracks = (stack?["children"] as? [[String: Any]] ?? [])
            .filter { Self.schema($0)?.hasPrefix("Track.") == true && $0["kind"] as? String == "Video" }
        guard let track = videoTracks.first else {
            throw TimeModelError(.missingKey, "the timeline has no video track", subject: path)
        }
        for (index, extra) in videoTracks.enumerated().dropFirst()
        where (extra["children"] as? [[String: Any]] ?? []).contains(where: { Self.schema($0)?.hasPrefix("Gap.") != true }) {
            throw TimeModelError(.invalidValue, "video track \(index + 1) ('\(extra["name"] as? String ?? "")') holds clips; "
                                 + "slomo renders one track: move them to the first or remove the track", subject: path)
        }
        let children = track["children"] as? [[String: Any]] ?? []
        guard !children.isEmpty else {
            throw TimeModelError(.emptyRange, "the first video track is empty", subject: path)
        }
        let pieces = try children.enumerated().map { index, item in try piece(item, number: index + 1) }
        return Composition(try OTIOPiece.clips(pieces, sources: sources))
    }

    /// One track item as a piece of a source file, or the error that names why it cannot be.
    private func piece(_ item: [String: Any], number: Int) throws -> OTIOPiece {
        let name = item["name"] as? String ?? ""
        let subject = "\(path): clip \(number)" + (name.isEmpty ? "" : " ('\(name)')")
        let schema = Self.schema(item) ?? "an item without a schema"
        guard schema.hasPrefix("Clip.") else {
            let what = schema.hasPrefix("Gap.") ? "a gap" : schema.hasPrefix("Transition.") ? "a transition"
                : schema.hasPrefix("Stack.") ? "a nested stack" : schema
            throw TimeModelError(.invalidValue, "is \(what); slomo plays clips end to end: remove it or render it in the editor",
                                 subject: subject)
        }
        if item["enabled"] as? Bool == false {
            throw TimeModelError(.invalidValue, "is disabled; enable or remove it", subject: subject)
        }
        let reference = Self.activeReference(item)
        guard let url = reference?["target_url"] as? String, Self.schema(reference!)?.hasPrefix("ExternalReference.") == true else {
            throw TimeModelError(.missingFile, "has no media file (\(reference.flatMap(Self.schema) ?? "no media reference"))",
                                 subject: subject)
        }
        let file = try mediaPath(url, subject: subject)
        guard let range = try (item["source_range"] as? [String: Any] ?? reference?["available_range"] as? [String: Any])
            .map({ try Self.timeRange($0, subject: subject) }) else {
            throw TimeModelError(.missingKey, "has neither a source range nor an available range", subject: subject)
        }
        var scalar = 1.0, freeze = false
        for effect in item["effects"] as? [[String: Any]] ?? [] {
            let effectSchema = Self.schema(effect) ?? ""
            if effectSchema.hasPrefix("LinearTimeWarp.") {
                scalar *= effect["time_scalar"] as? Double ?? 1
            } else if effectSchema.hasPrefix("FreezeFrame.") {
                freeze = true
            } else {
                let effectName = effect["effect_name"] as? String ?? effectSchema
                throw TimeModelError(.invalidValue, "has the effect '\(effectName)', which slomo cannot apply; "
                                     + "render it in the editor or remove it", subject: subject)
            }
        }
        return try OTIOPiece(file: file, start: range.start, duration: range.duration, timeScalar: scalar,
                             freeze: freeze, exact: TimelineMetadata.fields((item["metadata"] as? [String: Any])?["slomo"]),
                             subject: subject)
    }

    /// A local path from a reference's URL: `file://` URLs and plain paths, relative ones
    /// against the timeline's folder.
    private func mediaPath(_ url: String, subject: String) throws -> String {
        if url.hasPrefix("file://") {
            guard let path = URL(string: url)?.path, !path.isEmpty else {
                throw TimeModelError(.unparseable, "has the media URL '\(url)', which is not a file URL", subject: subject)
            }
            return path
        }
        if let scheme = url.range(of: "://") {
            throw TimeModelError(.invalidValue, "refers to '\(url)'; slomo reads local files only, not "
                                 + "\(url[..<scheme.lowerBound]) URLs", subject: subject)
        }
        return url.hasPrefix("/") ? url : URL(fileURLWithPath: baseDirectory).appendingPathComponent(url).standardizedFileURL.path
    }

    private static func schema(_ object: [String: Any]) -> String? { object["OTIO_SCHEMA"] as? String }

    private static func activeReference(_ clip: [String: Any]) -> [String: Any]? {
        if let references = clip["media_references"] as? [String: Any] {
            let key = clip["active_media_reference_key"] as? String ?? "DEFAULT_MEDIA"
            return references[key] as? [String: Any]
        }
        return clip["media_reference"] as? [String: Any]
    }

    private static func timeRange(_ object: [String: Any], subject: String) throws -> TimeRange {
        func time(_ key: String) throws -> MediaTime {
            guard let value = object[key] as? [String: Any], let number = value["value"] as? Double,
                  let rate = value["rate"] as? Double, rate > 0,
                  let exactRate = Rational.approximating(rate, maximumDenominator: 1001),
                  let exactValue = Rational.approximating(number),
                  let seconds = exactValue.dividedReportingOverflow(by: exactRate) else {
                throw TimeModelError(.unparseable, "has a source range whose \(key) is not a RationalTime", subject: subject)
            }
            return MediaTime(seconds: seconds)
        }
        return TimeRange(start: try time("start_time"), duration: try time("duration"))
    }
}
