import SlomoCore

/// The exact description of a timeline event that slomo keeps beside what an editor reads
/// (`metadata.slomo` in OTIO): exact times as text, the section it belongs to and the ramp a
/// step approximates. Readers use it to restore the composition without rounding.
struct TimelineMetadata: Hashable {
    var source: TimeRange
    var output: TimeRange
    var section: String?
    var ramp: Timeline.Ramp?
    /// Source seconds per output second, negative for a reversed event.
    var rate: Rational
    var hold: Freeze.Audio?

    init(_ event: Timeline.Event) {
        source = event.source
        output = event.output
        section = event.section.map { SectionSpec($0).description }
        ramp = event.ramp
        rate = event.reversed ? Rational(-1) * event.rate : event.rate
        hold = event.hold
    }

    /// The JSON object: `{"source": "2-4", "output": "2-10", "rate": "1/4", "section": …}`; a
    /// reversed event's rate is negative (`"-1/2"`), its `source` still the range it plays.
    var dictionary: [String: Any] {
        var fields: [String: Any] = ["source": Self.text(source), "output": Self.text(output),
                                     "rate": rate.description]
        if let section { fields["section"] = section }
        if let hold { fields["freeze"] = hold.rawValue }
        if let ramp {
            fields["ramp"] = ["from": ramp.from.description, "to": ramp.to.description, "ease": ramp.ease.description,
                              "source": Self.text(ramp.source), "output": Self.text(ramp.output)]
        }
        return fields
    }

    /// `"2-4.5"` with exact edges (`1/3` where a decimal would round).
    static func text(_ range: TimeRange) -> String {
        "\(range.start.exactDescription)-\(range.end.exactDescription)"
    }
}

extension TimelineMetadata {
    /// What a reader takes back from `metadata.slomo`: exact ranges, rate and section text.
    struct Fields: Hashable {
        var source: TimeRange
        var output: TimeRange
        /// Negative when `source` plays backwards.
        var rate: Rational
        var section: String?
        /// A freeze frame's sound; its `source` is the held time (empty) and `rate` 0.
        var hold: Freeze.Audio?
    }

    /// The fields of a clip's `metadata.slomo`, or nil when it is absent or not slomo's.
    static func fields(_ object: Any?) -> Fields? {
        guard let fields = object as? [String: Any],
              let source = (fields["source"] as? String).flatMap(range), let output = (fields["output"] as? String).flatMap(range),
              let rateText = fields["rate"] as? String else { return nil }
        if let hold = (fields["freeze"] as? String).flatMap(Freeze.Audio.init(rawValue:)) {
            return source.isEmpty && !output.isEmpty
                ? Fields(source: source, output: output, rate: Rational(0), section: nil, hold: hold) : nil
        }
        guard let rate = Rational(decimal: rateText), (try? Rate.directed(rate)) != nil, !source.isEmpty, !output.isEmpty
        else { return nil }
        return Fields(source: source, output: output, rate: rate, section: fields["section"] as? String)
    }

    /// `"2-4.5"` back to a range.
    private static func range(_ text: String) -> TimeRange? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = try? MediaTime(parsing: String(parts[0])),
              let end = try? MediaTime(parsing: String(parts[1])), start <= end else { return nil }
        return TimeRange(start: start, end: end)
    }
}
