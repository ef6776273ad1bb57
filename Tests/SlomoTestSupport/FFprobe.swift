import Foundation

/// `ffprobe`'s JSON view of a file: the independent judge of what slomo reads and writes.
public struct FFprobe {
    /// The `format` object.
    public let format: [String: Any]
    /// The `streams` array.
    public let streams: [[String: Any]]

    /// Probes `path` with `-show_format -show_streams`.
    public init(_ path: String) throws {
        let result = try runChecked("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", path])
        let root = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any] ?? [:]
        format = root["format"] as? [String: Any] ?? [:]
        streams = root["streams"] as? [[String: Any]] ?? []
    }

    /// The first stream of a type (`video`, `audio`).
    public func stream(_ type: String) -> [String: Any]? {
        streams.first { $0["codec_type"] as? String == type }
    }

    /// Presentation timestamps and durations of every packet of the first stream of a type,
    /// in that stream's time base ticks, in decoding order.
    public static func packets(_ path: String, stream type: String = "v") throws -> [(pts: Int64, dts: Int64, duration: Int64)] {
        let result = try runChecked("ffprobe", ["-v", "error", "-select_streams", "\(type):0", "-show_entries",
                                                "packet=pts,dts,duration", "-of", "csv=p=0", path])
        return result.standardOutput.split(separator: "\n").map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { Int64($0) ?? Int64.min }
            return (fields[0], fields[1], fields.count > 2 ? fields[2] : 0)
        }
    }
}
