/// A freeze as written in an edit script (`freeze: {at: f720, for: 2}`), before it is resolved
/// against its clip: `at` may be a frame number or a timecode, which need the frame rate.
public struct FreezeSpec: Hashable, Sendable, CustomStringConvertible {
    /// The time whose frame holds.
    public var at: SectionSpec.Position
    /// How long the hold lasts in the output.
    public var duration: MediaTime
    /// What is heard during the hold.
    public var audio: Freeze.Audio

    /// A freeze spec; nothing is checked until it is resolved.
    public init(at: SectionSpec.Position, duration: MediaTime, audio: Freeze.Audio = .silence) {
        self.at = at
        self.duration = duration
        self.audio = audio
    }

    /// Parses `T:D[:audio=silence|freeze]`: T a time, timecode or frame as in sections (`3`,
    /// `00:00:03.000`, `f720`), D a duration. Errors name the text (`freeze '3:2'`).
    public init(parsing text: String) throws {
        let origin = SectionOrigin.freezeSyntax(text)
        func problem(_ kind: TimeModelError.Kind, _ message: String) -> TimeModelError {
            TimeModelError(kind, message, section: origin)
        }
        var fields = text.trimmingSpaces.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        var audio = Freeze.Audio.silence
        while let last = fields.last, last.contains("=") {
            let pair = last.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, pair[0] == "audio", let choice = Freeze.Audio(rawValue: pair[1]) else {
                throw problem(.unparseable, "expected :audio=silence or :audio=freeze, got ':\(last)'")
            }
            audio = choice
            fields.removeLast()
        }
        guard fields.count >= 2, let durationText = fields.popLast() else {
            throw problem(.unparseable, "expected T:D (hold the frame at T for D seconds), such as 3:2")
        }
        do {
            self.init(at: try SectionSpec.Position(parsing: fields.joined(separator: ":")),
                      duration: try MediaTime(parsing: durationText), audio: audio)
        } catch let error as TimeModelError {
            throw problem(error.kind, error.description)
        }
        if case .time(let at) = self.at {
            _ = try resolved(in: TimeRange(start: at, end: at), frameRate: nil, origin: origin)
        }
    }

    /// `3:2`, `f720:1.5:audio=freeze`.
    public var description: String {
        "\(at):\(duration.exactDescription)" + (audio == .silence ? "" : ":audio=\(audio.rawValue)")
    }

    /// The spec of a resolved freeze.
    public init(_ freeze: Freeze) {
        self.init(at: .time(freeze.at), duration: freeze.duration, audio: freeze.audio)
    }

    /// The freeze in `clip` at `frameRate`, named by `origin` in errors.
    public func resolved(in clip: TimeRange, frameRate: Rational?, origin: SectionOrigin) throws -> Freeze {
        do {
            guard at != .end else {
                throw TimeModelError(.invalidValue, "a freeze holds a frame before the end; give its time")
            }
            return try Freeze(at: try at.time(in: clip, frameRate: frameRate), duration: duration, audio: audio, origin: origin)
        } catch let error as TimeModelError where error.section == nil {
            throw TimeModelError(error.kind, error.problem, section: origin)
        }
    }
}
