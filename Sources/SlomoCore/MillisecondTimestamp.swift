import Foundation

/// Wall-clock times as ISO 8601 text with milliseconds (`2026-11-27T17:45:01.123Z`): what a
/// batch's results record when a job finished and what a capture tags as its creation time.
/// Such texts sort as the times do.
public enum MillisecondTimestamp {
    /// `date` as text.
    public static func text(_ date: Date = Date()) -> String { formatter().string(from: date) }

    /// The time a text of this form names; nil for any other text.
    public static func date(_ text: String) -> Date? { formatter().date(from: text) }

    /// A formatter a call (the formatter is not `Sendable`).
    private static func formatter() -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
