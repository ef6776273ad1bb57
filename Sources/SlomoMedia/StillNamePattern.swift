import SlomoCore

/// The file names of several stills, from one pattern: `{n}` is a still's number from 1,
/// zero-padded to the width of the count (`shot-{n}.png` → `shot-01.png` … `shot-12.png`),
/// `{time}` its requested time in seconds with milliseconds (`frame-{time}.jpg` →
/// `frame-3.250.jpg`). A name without either is one still's name, used as it is.
public struct StillNamePattern: Hashable, Sendable, CustomStringConvertible {
    /// The pattern as given.
    public let pattern: String

    public init(_ pattern: String) { self.pattern = pattern }

    /// True when the pattern holds `{n}` or `{time}`, so that it can name several stills.
    public var namesSeveral: Bool { pattern.contains("{n}") || pattern.contains("{time}") }

    /// The name of still `number` (from 1) of `count`, asked for at `time`.
    public func name(number: Int, of count: Int, time: MediaTime) -> String {
        let digits = String(number)
        let padded = String(repeating: "0", count: max(0, String(count).count - digits.count)) + digits
        return pattern.replacingOccurrences(of: "{n}", with: padded)
            .replacingOccurrences(of: "{time}", with: time.formattedSeconds(fractionDigits: 3))
    }

    /// The names of stills asked for at `times`, in that order. Throws `MediaError`
    /// (`.invalidArgument`) when there are several and the pattern cannot tell them apart:
    /// it has no `{n}` or `{time}`, or two names come out the same (times closer than 1 ms
    /// named by `{time}` alone).
    public func names(for times: [MediaTime]) throws(MediaError) -> [String] {
        if times.count > 1 && !namesSeveral {
            throw MediaError(.invalidArgument, path: pattern,
                             detail: "\(times.count) stills need a name pattern with {n} (the still's number) or {time} "
                                 + "(its time in seconds), such as shot-{n}.png or frame-{time}.jpg")
        }
        let names = times.enumerated().map { name(number: $0.offset + 1, of: times.count, time: $0.element) }
        var seen: Set<String> = []
        for name in names where !seen.insert(name).inserted {
            throw MediaError(.invalidArgument, path: pattern,
                             detail: "two stills would both be named \(name); add {n} to the pattern")
        }
        return names
    }

    public var description: String { pattern }
}
