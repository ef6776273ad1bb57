import Foundation
import SlomoCore

/// Writes a `Timeline` as OpenTimelineIO JSON (`.otio`): a video track, and an audio track when
/// the sources have sound, of clips referencing the original media. Each clip's `source_range`
/// starts at its first source frame (in the medium's frame rate) and lasts its placed time in
/// the track (whole frames of the timeline's rate); a `LinearTimeWarp` effect's `time_scalar`
/// is its placed rate (0.25 plays a quarter as fast), so the media it uses is
/// `duration × time_scalar`, exactly its source range: the convention of OTIO's EDL and AAF
/// adapters. A reversed event's `time_scalar` is negative (−speed): its `source_range` still
/// starts where its media range starts (`duration × |time_scalar|` long), and that range plays
/// from its end back to its start. The exact times, the section and a ramp's exact shape go in
/// each clip's `metadata.slomo`, from which `OTIOReader` restores the composition exactly.
public enum OTIOWriter {
    /// The `.otio` JSON text of `timeline`.
    public static func text(_ timeline: Timeline) throws -> String {
        var tracks: [[String: Any]] = [track("V1", kind: "Video", timeline)]
        if timeline.media.contains(where: { $0.audioRate != nil }) {
            tracks.append(track("A1", kind: "Audio", timeline))
        }
        let document: [String: Any] = [
            "OTIO_SCHEMA": "Timeline.1",
            "name": timeline.name,
            "global_start_time": rationalTime(.zero, rate: timeline.frameRate),
            "metadata": ["slomo": ["version": 1, "duration": timeline.duration.exactDescription]],
            "tracks": item("Stack.1", name: "tracks", extra: ["children": tracks, "source_range": NSNull()]),
        ]
        let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private static func track(_ name: String, kind: String, _ timeline: Timeline) -> [String: Any] {
        let clips = timeline.events.enumerated().map { index, event in clip(event, number: index + 1, timeline) }
        return item("Track.1", name: name, extra: ["kind": kind, "children": clips, "source_range": NSNull()])
    }

    private static func clip(_ event: Timeline.Event, number: Int, _ timeline: Timeline) -> [String: Any] {
        let media = timeline.media[event.media]
        let rate = media.frameRate ?? timeline.frameRate
        var effects: [[String: Any]] = []
        if event.hold != nil {
            effects.append(["OTIO_SCHEMA": "FreezeFrame.1", "name": "freeze", "effect_name": "FreezeFrame",
                            "time_scalar": 0.0, "metadata": [String: Any]()])
        } else if event.placedRate != Rational(1) || event.reversed {
            let speed = event.placedRate.doubleValue
            effects.append(["OTIO_SCHEMA": "LinearTimeWarp.1", "name": "speed", "effect_name": "LinearTimeWarp",
                            "time_scalar": event.reversed ? -speed : speed, "metadata": [String: Any]()])
        }
        let reference: [String: Any] = [
            "OTIO_SCHEMA": "ExternalReference.1", "name": media.name, "target_url": media.url,
            "available_range": timeRange(start: .zero, duration: media.duration, rate: rate),
            "available_image_bounds": NSNull(), "metadata": [String: Any](),
        ]
        return item("Clip.2", name: "\(media.name) \(number)", extra: [
            "source_range": ["OTIO_SCHEMA": "TimeRange.1", "start_time": rationalTime(event.source.start, rate: rate),
                             "duration": rationalTime(event.placed.duration, rate: timeline.frameRate)],
            "effects": effects,
            "media_references": ["DEFAULT_MEDIA": reference],
            "active_media_reference_key": "DEFAULT_MEDIA",
            "metadata": ["slomo": TimelineMetadata(event).dictionary],
        ])
    }

    /// The fields every OTIO item has, plus `extra`.
    private static func item(_ schema: String, name: String, extra: [String: Any]) -> [String: Any] {
        var item: [String: Any] = ["OTIO_SCHEMA": schema, "name": name, "metadata": [String: Any](),
                                   "effects": [Any](), "markers": [Any](), "enabled": true]
        item.merge(extra) { _, new in new }
        return item
    }

    private static func timeRange(start: MediaTime, duration: MediaTime, rate: Rational) -> [String: Any] {
        ["OTIO_SCHEMA": "TimeRange.1", "start_time": rationalTime(start, rate: rate),
         "duration": rationalTime(duration, rate: rate)]
    }

    private static func rationalTime(_ time: MediaTime, rate: Rational) -> [String: Any] {
        ["OTIO_SCHEMA": "RationalTime.1", "rate": rate.doubleValue, "value": time.doubleSeconds * rate.doubleValue]
    }
}
