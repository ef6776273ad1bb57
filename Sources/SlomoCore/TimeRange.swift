/// A half-open span of media time, `start ..< start + duration`, like `CMTimeRange`.
///
/// The duration is never negative; an empty range (duration 0) contains no time.
public struct TimeRange: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The first instant in the range.
    public let start: MediaTime
    /// The length of the range; never negative.
    public let duration: MediaTime

    /// The first instant after the range (stored: lookups use it often).
    public let end: MediaTime

    /// `start ..< start + duration`. Traps if `duration` is negative or the end overflows.
    public init(start: MediaTime, duration: MediaTime) {
        precondition(duration >= .zero, "TimeRange with a negative duration \(duration)")
        self.start = start
        self.duration = duration
        self.end = start + duration
    }

    /// `start ..< end`. Traps if `end < start`.
    public init(start: MediaTime, end: MediaTime) {
        precondition(end >= start, "TimeRange ending at \(end) before its start \(start)")
        self.start = start
        self.duration = end - start
        self.end = end
    }

    /// The same span as a Swift range (`.seconds(2) ..< .seconds(4)`).
    public init(_ range: Range<MediaTime>) {
        self.init(start: range.lowerBound, end: range.upperBound)
    }

    /// True when the duration is zero.
    public var isEmpty: Bool { duration == .zero }

    /// True when `start ≤ time < end`.
    public func contains(_ time: MediaTime) -> Bool { start <= time && time < end }

    /// True when `other` lies entirely inside this range.
    public func contains(_ other: TimeRange) -> Bool { start <= other.start && other.end <= end }

    /// True when the two ranges share some time (touching ends do not overlap).
    public func overlaps(_ other: TimeRange) -> Bool { start < other.end && other.start < end }

    /// The common part of two ranges, or nil when they do not overlap.
    public func intersection(_ other: TimeRange) -> TimeRange? {
        guard overlaps(other) else { return nil }
        return TimeRange(start: .max(start, other.start), end: .min(end, other.end))
    }

    /// The range moved by `offset`.
    public func shifted(by offset: MediaTime) -> TimeRange {
        TimeRange(start: start + offset, duration: duration)
    }

    private enum CodingKeys: String, CodingKey { case start, duration }

    /// Decodes `{"start": …, "duration": …}`; a negative duration is a decoding error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let start = try container.decode(MediaTime.self, forKey: .start)
        let duration = try container.decode(MediaTime.self, forKey: .duration)
        guard duration >= .zero, (try? start.adding(duration)) != nil else {
            throw DecodingError.dataCorruptedError(forKey: .duration, in: container,
                                                   debugDescription: "duration must be ≥ 0 and its end must fit")
        }
        self.init(start: start, duration: duration)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(start, forKey: .start)
        try container.encode(duration, forKey: .duration)
    }

    /// `"2-4"`: start and end in seconds.
    public var description: String { "\(start)-\(end)" }
}
