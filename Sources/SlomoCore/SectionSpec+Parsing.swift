/// The section syntax of `--section` (grammar in docs/sections.md):
///
///     START-ENDxRATE[:ramp=S][:ramp-in=S][:ramp-out=S][:ease=CURVE][:audio=NAME][:pitch=SEMITONES][:frames=NAME]
///
/// with START and END as seconds (`2.5`), timecodes (`00:00:02.500`) or frames (`f480`), END
/// also `end`, and RATE a decimal or a fraction (`0.25`, `1/4`), negative to play backwards
/// (`-1`, `-0.5`).
extension SectionSpec {
    /// Parses the section syntax. Errors have `section '<text>'` as subject and say what is
    /// wrong: `.unparseable` for malformed text or numbers, `.nonPositiveRate`,
    /// `.rateOutOfRange`, `.emptyRange` for a start at or after the end (when both are times),
    /// `.rampTooLong`, `.invalidValue` for unknown option values.
    public init(parsing text: String) throws {
        do {
            try self.init(parsingUnlabelled: text)
        } catch let error as TimeModelError where error.section == nil {
            let inner = error.subject.map { "\($0): " } ?? ""
            throw TimeModelError(error.kind, inner + error.problem, section: .syntax(text))
        }
    }

    private init(parsingUnlabelled text: String) throws {
        let body = text.trimmingSpaces
        guard let x = body.firstIndex(of: "x") else {
            throw TimeModelError(.unparseable, "expected START-ENDxRATE, such as 2-4x0.25")
        }
        let edges = body[..<x].split(separator: "-", omittingEmptySubsequences: false)
        guard edges.count == 2 else {
            throw TimeModelError(.unparseable, "expected START-END before 'x', such as 2-4 (no negative times)")
        }
        let fields = body[body.index(after: x)...].split(separator: ":", omittingEmptySubsequences: false)
        let start = try Position(parsing: String(edges[0]))
        let end = try Position(parsing: String(edges[1]))
        guard start != .end else { throw TimeModelError(.unparseable, "'end' can only be the end of a section") }
        let (rate, reversed) = try Rate.parsingDirected(String(fields[0]))
        self.init(start: start, end: end, rate: rate, reversed: reversed)

        var seen: Set<Substring> = []
        for option in fields.dropFirst() {
            let pair = option.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else {
                throw TimeModelError(.unparseable, "expected an option such as :ramp=0.3, got ':\(option)'")
            }
            let (key, value) = (pair[0], String(pair[1]))
            guard seen.insert(key == "ramp" ? "ramp-in" : key).inserted,
                  key != "ramp" || seen.insert("ramp-out").inserted else {
                throw TimeModelError(.invalidValue, "option '\(key)' is given twice")
            }
            switch key {
            case "ramp": rampIn = try Self.duration(value, option: key); rampOut = rampIn
            case "ramp-in": rampIn = try Self.duration(value, option: key)
            case "ramp-out": rampOut = try Self.duration(value, option: key)
            case "ease": ease = try Ease(parsing: value)
            case "audio": audio = try TimePitchAlgorithm(parsing: value)
            case "pitch":
                guard let semitones = Double(value), semitones.isFinite else {
                    throw TimeModelError(.unparseable, "pitch expects semitones such as 3, -2 or 0.5 (50 cents), got '\(value)'")
                }
                pitch = semitones
            case "frames": frames = try FrameChoice(parsing: value)
            default:
                throw TimeModelError(.unparseable,
                                     "unknown option '\(key)'; expected ramp, ramp-in, ramp-out, ease, audio, pitch or frames")
            }
        }
        // Check what can be checked without the clip: times in order, ramps that fit.
        if case .time(let startTime) = start, case .time(let endTime) = end {
            _ = try resolved(in: TimeRange(start: startTime, end: .max(startTime, endTime)),
                             frameRate: nil, origin: .syntax(text))
        }
    }

    private static func duration(_ text: String, option: Substring) throws -> MediaTime {
        guard let time = try? MediaTime(parsing: text), time >= .zero else {
            throw TimeModelError(.unparseable, "\(option) expects a duration such as 0.3 or 300ms, got '\(text)'")
        }
        return time
    }
}
