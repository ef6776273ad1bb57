
/// `--section auto` (and `auto` in an edit script's sections): sections around the moments
/// SlomoDetect's `MomentDetector` finds, which turns them into the section syntax everything
/// else reads (`sections(in:)` there). `auto` slows the strongest moment at 0.25 from 1 s before it to 1 s
/// after; `auto:x0.5:before=0.5:after=0.25` chooses the rate and the span; `auto:count=3` the
/// three strongest whose sections do not overlap.
public struct AutoSection: Hashable, Sendable, CustomStringConvertible {
    /// The text it was read from (`auto:x0.5`).
    public let text: String
    /// The rate, as written (`0.25`, `1/8`, `-1` backwards).
    public var rate = "0.25"
    public var before = MediaTime(value: 1, timescale: 1)
    public var after = MediaTime(value: 1, timescale: 1)
    /// How many moments to slow, strongest first.
    public var count = 1

    /// Whether `text` asks for detected sections.
    public static func isAuto(_ text: String) -> Bool { text == "auto" || text.hasPrefix("auto:") }

    /// Parses `auto[:xRATE][:before=S][:after=S][:count=N]`; errors name the section as
    /// syntax (`section 'auto:x9'`), like any section's.
    public init(parsing text: String) throws {
        self.text = text
        guard Self.isAuto(text) else {
            throw TimeModelError(.unparseable, "expected auto[:xRATE][:before=S][:after=S][:count=N]", section: .syntax(text))
        }
        for field in text.split(separator: ":").dropFirst() {
            do {
                try take(String(field))
            } catch let error as TimeModelError {
                throw TimeModelError(error.kind, error.problem, section: .syntax(text))
            }
        }
    }

    public var description: String { text }

    private mutating func take(_ field: String) throws {
        if field.hasPrefix("x") {
            rate = String(field.dropFirst())
            _ = try Rate.parsingDirected(rate)    // auto:x-1 plays the moment backwards
            return
        }
        let pair = field.split(separator: "=", maxSplits: 1).map(String.init)
        guard pair.count == 2 else {
            throw TimeModelError(.unparseable, "expected xRATE, before=S, after=S or count=N, got ':\(field)'")
        }
        switch pair[0] {
        case "before", "after":
            guard let time = try? MediaTime(parsing: pair[1]), time >= .zero else {
                throw TimeModelError(.unparseable, "\(pair[0])=\(pair[1]): give seconds, such as 0.5")
            }
            if pair[0] == "before" { before = time } else { after = time }
        case "count":
            guard let number = Int(pair[1]), number > 0 else {
                throw TimeModelError(.unparseable, "count=\(pair[1]): give a whole number of moments, 1 or more")
            }
            count = number
        default:
            throw TimeModelError(.unparseable, "unknown option '\(pair[0])'; expected xRATE, before, after or count")
        }
    }
}
