import SlomoCore
import SlomoMedia

/// When the frames of a movie's video stream are shown, read from its packets' presentation
/// timestamps (nothing is decoded), and the intervals between them: what a stream really does,
/// frame by frame, as opposed to the frame rate its header claims.
public struct FrameIntervals: Hashable, Sendable {
    /// The media file.
    public let path: String
    /// The video stream measured: the first one that is not cover art.
    public let stream: StreamInfo
    /// Each frame's presentation time in seconds from the file's start time, in display order.
    public let times: [Double]
    /// The interval before each frame but the first, in seconds (`times[i + 1] − times[i]`).
    public let intervals: [Double]
    /// Indices into `intervals` of gaps: intervals more than `gapFactor` times the median of
    /// their neighbours, where frames were dropped or the stream stalled. A change of frame
    /// rate (variable-frame-rate video) is a step, not a gap.
    public let gaps: [Int]
    /// True when the intervals vary (as `inspect --frames` and plans judge it).
    public let isVariableFrameRate: Bool

    /// How much longer than its neighbours an interval must be to count as a gap.
    public static let gapFactor = 1.5
    /// How many intervals on each side of an interval its neighbours are.
    static let neighbourhood = 8

    /// Reads the presentation times of `path`'s first video stream (`SourceFrameTimes`, from
    /// its packets). Throws the `MediaError` of a file that cannot be opened, FFmpeg's error of
    /// one that cannot be read to its end, and `PlotError.nothingToPlot` without a video stream
    /// of at least two frames.
    public init(path: String) throws {
        let file = try MediaFile(path: path)
        guard let stream = file.videoStream, let frames = try SourceFrameTimes.of(file) else {
            throw PlotError(.nothingToPlot, path: path, detail: "has no video stream, so no frame intervals to plot")
        }
        guard frames.times.count >= 2 else {
            throw PlotError(.nothingToPlot, path: path,
                            detail: "its video stream has \(frames.times.count) frame(s), so no frame interval to plot")
        }
        self.path = path
        self.stream = stream
        isVariableFrameRate = frames.isVariableFrameRate
        times = frames.times.map(\.doubleSeconds)
        intervals = zip(self.times.dropFirst(), self.times).map { $0 - $1 }
        gaps = Self.gaps(in: intervals)
    }

    /// The interval the stream's nominal frame rate promises, in seconds; nil when it has none.
    public var nominalInterval: Double? {
        stream.video?.nominalFrameRate.flatMap { $0.numerator > 0 ? 1 / $0.doubleValue : nil }
    }

    private static func gaps(in intervals: [Double]) -> [Int] {
        intervals.indices.filter { index in
            let window = max(0, index - neighbourhood)..<min(intervals.count, index + neighbourhood + 1)
            let neighbours = window.filter { $0 != index }.map { intervals[$0] }.sorted()
            guard !neighbours.isEmpty else { return false }
            return intervals[index] > gapFactor * neighbours[neighbours.count / 2]
        }
    }
}
