/// A SMPTE timecode, `hh:mm:ss:ff` (frames counted at the nominal whole rate) or, at 29.97 and
/// 59.94 fps, drop-frame `hh:mm:ss;ff` (frame numbers 0 and 1, or 0–3 at 59.94, skipped at
/// the start of every minute not divisible by ten, so that the timecode keeps to the clock).
/// It names a frame, so its time needs the source frame rate.
public struct SMPTETimecode: Hashable, Sendable, CustomStringConvertible {
    public var hours: Int64, minutes: Int64, seconds: Int64, frames: Int64
    /// True for drop-frame (`;` before the frames).
    public var dropFrame: Bool

    /// Parses `hh:mm:ss:ff` or `hh:mm:ss;ff`; nil for any other text.
    public init?(parsing text: String) {
        let separators = text.filter { $0 == ":" || $0 == ";" }
        guard separators.count == 3, separators.dropLast().allSatisfy({ $0 == ":" }) else { return nil }
        let fields = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == ":" || $0 == ";" })
        guard fields.count == 4, fields.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hours = Int64(fields[0]), let minutes = Int64(fields[1]), let seconds = Int64(fields[2]),
              let frames = Int64(fields[3]), minutes < 60, seconds < 60 else { return nil }
        (self.hours, self.minutes, self.seconds, self.frames) = (hours, minutes, seconds, frames)
        dropFrame = separators.last == ";"
    }

    /// The non-drop timecode of frame `number` counted at `frameRate`'s nominal whole rate.
    public init(frameNumber number: Int64, at frameRate: Rational) {
        let nominal = max(1, Int64(frameRate.doubleValue.rounded()))
        let seconds = number / nominal
        (hours, minutes, self.seconds, frames) = (seconds / 3600, seconds / 60 % 60, seconds % 60, number % nominal)
        dropFrame = false
    }

    /// The timecode at `target` fps of the frame this one names at `source` fps: hours,
    /// minutes and seconds kept, the frames field scaled from the one nominal whole rate to the
    /// other, rounded down (a 240 fps recording's `01:00:00:120` is `01:00:00:15` at 30 fps).
    /// Non-drop. Throws what `frameNumber(at:)` throws for `source`.
    public func converted(from source: Rational, to target: Rational) throws -> SMPTETimecode {
        _ = try frameNumber(at: source)
        let from = max(1, Int64(source.doubleValue.rounded())), to = max(1, Int64(target.doubleValue.rounded()))
        return SMPTETimecode(frameNumber: ((hours * 60 + minutes) * 60 + seconds) * to + frames * to / from, at: target)
    }

    /// `00:00:02:15`, or `00:01:00;02` for drop-frame.
    public var description: String {
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(hours)):\(two(minutes)):\(two(seconds))\(dropFrame ? ";" : ":")\(two(frames))"
    }

    /// The frame number this timecode names at `frameRate`. Throws `.invalidValue` when the
    /// frames field reaches the nominal rate, or for drop-frame at a rate other than
    /// 30000/1001 or 60000/1001.
    public func frameNumber(at frameRate: Rational) throws -> Int64 {
        let nominal = Int64(frameRate.doubleValue.rounded())
        guard nominal > 0, frames < nominal else {
            throw TimeModelError(.invalidValue, "timecode \(self): the frames field must be below \(nominal) at \(frameRate) fps")
        }
        let count = ((hours * 60 + minutes) * 60 + seconds) * nominal + frames
        guard dropFrame else { return count }
        guard frameRate == Rational(30000, 1001) || frameRate == Rational(60000, 1001) else {
            throw TimeModelError(.invalidValue, "drop-frame timecode \(self) needs 29.97 or 59.94 fps, not \(frameRate) "
                                 + "(use ':' before the frames)")
        }
        let dropped = nominal / 15    // 2 at 29.97, 4 at 59.94
        let totalMinutes = hours * 60 + minutes
        if seconds == 0 && frames < dropped && totalMinutes % 10 != 0 {
            throw TimeModelError(.invalidValue, "drop-frame timecode \(self) does not exist: frames 0–\(dropped - 1) "
                                 + "are skipped at the start of this minute")
        }
        return count - dropped * (totalMinutes - totalMinutes / 10)
    }
}
