import SlomoCore

/// Frame intervals of a video stream measured from the timestamps of all its packets: what
/// a stream really does, as opposed to the frame rate its header claims.
public struct FrameTiming: Codable, Hashable, Sendable {
    /// Number of packets (frames) in the stream.
    public var frameCount: Int
    /// Shortest, median and longest interval between consecutive presentation timestamps.
    public var minimumInterval: MediaTime?
    public var medianInterval: MediaTime?
    public var maximumInterval: MediaTime?
    /// True when intervals differ by more than one tick of the stream's time base (so that a
    /// constant rate that the time base cannot represent exactly is not called variable).
    public var isVariableFrameRate: Bool

    /// Measures the intervals between sorted presentation timestamps in `timeBase` ticks.
    public init(presentationTimestamps: [Int64], timeBase: Rational) {
        let sorted = presentationTimestamps.sorted()
        let intervals = zip(sorted.dropFirst(), sorted).map { $0 - $1 }.sorted()
        func time(_ ticks: Int64?) -> MediaTime? { ticks.map { MediaTime(ticks: $0, timeBase: timeBase) } }
        frameCount = presentationTimestamps.count
        minimumInterval = time(intervals.first)
        medianInterval = time(intervals.isEmpty ? nil : intervals[intervals.count / 2])
        maximumInterval = time(intervals.last)
        isVariableFrameRate = (intervals.last ?? 0) - (intervals.first ?? 0) > 1
    }
}

extension MediaFile {
    /// Opens the file and, with `measureFrames`, reads every packet to measure each video
    /// stream's `frameTiming`.
    public static func inspect(path: String, measureFrames: Bool) throws -> MediaFile {
        let demuxer = try Demuxer(path: path)
        var file = demuxer.file
        guard measureFrames else { return file }
        let videoIndices = Set(file.streams.filter { $0.kind == .video && !$0.isAttachedPicture }.map(\.index))
        var timestamps: [Int: [Int64]] = [:]
        while let packet = try demuxer.read() {
            guard videoIndices.contains(packet.streamIndex), let pts = packet.pts ?? packet.dts else { continue }
            timestamps[packet.streamIndex, default: []].append(pts)
        }
        for index in videoIndices {
            file.streams[index].frameTiming = FrameTiming(
                presentationTimestamps: timestamps[index] ?? [], timeBase: file.streams[index].timeBase)
        }
        return file
    }
}
