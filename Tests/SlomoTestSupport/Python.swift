import Foundation

/// Python programs as independent judges (the `opentimelineio` library and its adapters,
/// installed by `scripts/setup`).
public enum Python {
    /// Runs `program` with `python3 -c`, passing `arguments` as `sys.argv[1...]`; throws when
    /// it exits non-zero, with its stderr.
    public static func run(_ program: String, _ arguments: [String] = []) throws -> String {
        let result = try runCommand("python3", ["-c", program] + arguments)
        guard result.status == 0 else {
            throw CommandFailure(description: "python3 exited \(result.status): \(result.standardError)")
        }
        return result.standardOutput
    }

    /// `run` whose standard output is one JSON document.
    public static func json(_ program: String, _ arguments: [String] = []) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(try run(program, arguments).utf8))
    }

    /// Each clip of an `.otio` file's first video track as the OpenTimelineIO library computes
    /// it, in seconds: where its media starts (`start`), its media time (`duration`), the product
    /// of its time warps (`scalar`), where it sits in the track (`at`), its media's URL (`url`)
    /// and whether it is a freeze frame (`freeze`).
    public static func otioClips(_ path: String) throws -> [[String: Any]] {
        let document = try json("""
            import json, sys
            import opentimelineio as otio
            timeline = otio.adapters.read_from_file(sys.argv[1])
            clips = []
            for clip in timeline.video_tracks()[0].find_clips():
                scalar = 1.0
                for effect in clip.effects:
                    if isinstance(effect, otio.schema.LinearTimeWarp):
                        scalar *= effect.time_scalar
                clips.append({"start": clip.source_range.start_time.to_seconds(),
                              "duration": clip.source_range.duration.to_seconds(),
                              "scalar": scalar, "at": clip.range_in_parent().start_time.to_seconds(),
                              "url": clip.media_reference.target_url,
                              "freeze": any(isinstance(e, otio.schema.FreezeFrame) for e in clip.effects)})
            print(json.dumps(clips))
            """, [path])
        guard let clips = document as? [[String: Any]] else {
            throw CommandFailure(description: "the OTIO reader printed no list of clips for \(path)")
        }
        return clips
    }
}
