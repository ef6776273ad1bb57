/// A freeze frame: the source frame shown at `at` held for `duration` of output, after which
/// the clip goes on from where it was. In the time map it is a hold segment: output time →
/// source time stays a function (every output time of the hold shows source time `at`), and
/// source time `at` becomes the range of output the hold lasts. Written `3:2` (hold 3 s for
/// 2 s) or `3:2:audio=freeze`.
public struct Freeze: Hashable, Sendable, CustomStringConvertible {
    /// What is heard while the picture holds.
    public enum Audio: String, CaseIterable, Hashable, Sendable {
        /// Nothing (the default).
        case silence
        /// The sound at `at`, held: a frozen spectrum, without the buzz of a repeated grain.
        case freeze
    }

    /// The source time whose frame holds, in the source file's time.
    public let at: MediaTime
    /// How long the hold lasts in the output.
    public let duration: MediaTime
    /// What is heard during the hold.
    public let audio: Audio
    /// Where the freeze came from, for error messages only; it takes no part in equality.
    public var origin: SectionOrigin?

    /// A freeze; throws `.emptyRange` unless `duration` is positive.
    public init(at: MediaTime, duration: MediaTime, audio: Audio = .silence, origin: SectionOrigin? = nil) throws {
        self.at = at
        self.duration = duration
        self.audio = audio
        self.origin = origin
        guard duration > .zero else {
            throw TimeModelError(.emptyRange, "a freeze must last longer than 0 s, not \(duration) s", section: name)
        }
    }

    /// How messages name it: its origin, or `freeze '3:2'`.
    public var name: SectionOrigin { origin ?? .freezeSyntax(description) }

    /// `3:2` or `3:2:audio=freeze`.
    public var description: String {
        "\(at.exactDescription):\(duration.exactDescription)" + (audio == .silence ? "" : ":audio=\(audio.rawValue)")
    }

    /// Parses `T:D[:audio=silence|freeze]` (`FreezeSpec(parsing:)`) with frame numbers and
    /// timecodes at `frameRate`. Errors name the text.
    public init(parsing text: String, frameRate: Rational? = nil) throws {
        self = try FreezeSpec(parsing: text).resolved(in: TimeRange(start: .zero, end: .zero), frameRate: frameRate,
                                                      origin: .freezeSyntax(text))
    }

    public static func == (lhs: Freeze, rhs: Freeze) -> Bool {
        (lhs.at, lhs.duration, lhs.audio) == (rhs.at, rhs.duration, rhs.audio)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(at)
        hasher.combine(duration)
        hasher.combine(audio)
    }

    /// The freeze with `at` moved to the start of the source frame shown then (frames at
    /// `frameOrigin + n / frameRate`): the hold begins when that frame appears.
    func snapped(frameRate: Rational, origin frameOrigin: MediaTime = .zero) throws -> Freeze {
        let frame = try at.subtracting(frameOrigin).ticks(in: frameRate.reciprocal, rounding: .down)
        let start = try MediaTime(exactTicks: frame, timeBase: frameRate.reciprocal).adding(frameOrigin)
        return try Freeze(at: start, duration: duration, audio: audio, origin: origin)
    }

    /// Checks that `freezes` hold frames inside `clip` (before its end), outside every section
    /// (at an edge is fine) and at different times; returns them sorted.
    static func validated(_ freezes: [Freeze], in clip: TimeRange, sections: [Section]) throws -> [Freeze] {
        let sorted = freezes.sorted { $0.at < $1.at }
        for freeze in sorted {
            guard freeze.at >= clip.start, freeze.at < clip.end else {
                throw TimeModelError(.pastEnd, "holds the frame at \(freeze.at) s, outside the clip's \(clip.start)–\(clip.end) s "
                                     + "(to hold the last frame, give the time of that frame)", section: freeze.name)
            }
            if let section = sections.first(where: { $0.range.start < freeze.at && freeze.at < $0.range.end }) {
                throw TimeModelError(.overlap, "falls inside \(section.name) (\(section.range.start)–\(section.range.end) s); "
                                     + "a freeze goes between sections or at their edges", section: freeze.name)
            }
        }
        for (left, right) in zip(sorted, sorted.dropFirst()) where left.at == right.at {
            throw TimeModelError(.overlap, "holds the same frame as \(left.name); give one freeze the whole length",
                                 section: right.name)
        }
        return sorted
    }
}
