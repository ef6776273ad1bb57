import SlomoCore

/// One clip of an OTIO track as slomo reads it: a range of a media file and the rate it plays
/// at, before neighbouring pieces of one file are joined into a `Clip` with sections.
struct OTIOPiece {
    var file: String
    /// Where the media range starts (also for a reversed piece, which plays it from its end).
    var start: MediaTime
    /// The clip's time in the track.
    var duration: MediaTime
    /// The product of the clip's time warps; negative plays backwards.
    var timeScalar: Double
    var freeze: Bool
    var exact: TimelineMetadata.Fields?
    var subject: String

    init(file: String, start: MediaTime, duration: MediaTime, timeScalar: Double, freeze: Bool,
         exact: TimelineMetadata.Fields?, subject: String) throws {
        guard duration > .zero else {
            throw TimeModelError(.emptyRange, "lasts no time", subject: subject)
        }
        guard freeze || timeScalar != 0 else {
            throw TimeModelError(.nonPositiveRate, "plays at speed 0; slomo holds a frame only with a FreezeFrame effect",
                                 subject: subject)
        }
        self.file = file
        self.start = start
        self.duration = duration
        self.timeScalar = timeScalar
        self.freeze = freeze
        self.exact = exact
        self.subject = subject
    }

    /// The media range the piece plays, its speed and whether it plays backwards (from the
    /// range's end); a freeze frame holds its start (an empty media range, no rate) for the
    /// clip's time, exactly as slomo wrote it when it did.
    func resolved(frameRate: Rational?) throws -> (media: TimeRange, rate: Rate?, reversed: Bool) {
        do {
            if freeze {
                return (TimeRange(start: start, end: start), nil, false)
            }
            if let exact, abs(exact.rate.doubleValue - timeScalar) < 1e-9,
               abs(exact.source.start.doubleSeconds - start.doubleSeconds) < 1e-6,
               abs(exact.output.duration.doubleSeconds - duration.doubleSeconds) < 1e-6 {
                let (rate, reversed) = try Rate.directed(exact.rate)
                return (exact.source, rate, reversed)
            }
            guard let value = Rational.approximating(timeScalar) else {
                throw TimeModelError(.unparseable, "has the speed \(timeScalar), which is not a usable number")
            }
            let (rate, reversed) = try Rate.directed(value)
            return (TimeRange(start: start, duration: try duration.multiplied(by: rate.value)), rate, reversed)
        } catch let error as TimeModelError {
            throw TimeModelError(error.kind, error.problem, subject: subject)
        }
    }

    /// The freeze this piece is: its start held for its time in the track (exactly, from
    /// slomo's metadata when it wrote the timeline).
    func freezeFrame() throws -> Freeze {
        let exactDuration = exact.flatMap { $0.hold != nil && $0.source.start == start ? $0.output.duration : nil }
        return try Freeze(at: start, duration: exactDuration ?? duration, audio: exact?.hold ?? .silence,
                          origin: .document(subject))
    }

    /// The composition clips of `pieces`: neighbouring pieces of one file whose media ranges
    /// continue each other (a reversed piece's range too, though it plays from its end) join one
    /// clip; pieces at a rate other than 1 or played backwards become its sections, and runs of
    /// pieces that slomo marked as one section become that section again (when they still cover
    /// it and play in its direction).
    static func clips(_ pieces: [OTIOPiece], sources: OTIOReader.SourceLookup) throws -> [Clip] {
        var infos: [String: EditScript.SourceInfo] = [:]
        var resolved: [(piece: OTIOPiece, media: TimeRange, rate: Rate?, reversed: Bool)] = []
        for piece in pieces {
            let info: EditScript.SourceInfo
            if let known = infos[piece.file] {
                info = known
            } else {
                do { info = try sources(piece.file) } catch { throw TimeModelError(.missingFile, "\(error)", subject: piece.subject) }
                infos[piece.file] = info
            }
            var (media, rate, reversed) = try piece.resolved(frameRate: info.frameRate)
            let slack = MediaTime(seconds: (info.frameRate ?? Rational(1000)).reciprocal)
            if media.end > info.duration {
                guard media.end <= info.duration + slack else {
                    throw TimeModelError(.pastEnd, "plays media up to \(media.end.formattedSeconds()) s but "
                                         + "\(piece.file) lasts \(info.duration.formattedSeconds()) s", subject: piece.subject)
                }
                media = TimeRange(start: media.start, end: info.duration)
            }
            resolved.append((piece, media, rate, reversed))
        }

        var runs: [[(piece: OTIOPiece, media: TimeRange, rate: Rate?, reversed: Bool)]] = []
        for item in resolved {
            if let last = runs.last?.last, last.piece.file == item.piece.file, last.media.end == item.media.start {
                runs[runs.count - 1].append(item)
            } else {
                runs.append([item])
            }
        }
        return try runs.map { run in
            let file = run[0].piece.file, frameRate = infos[file]!.frameRate
            var range = TimeRange(start: run[0].media.start, end: run.last!.media.end)
            let freezes = try run.filter(\.piece.freeze).map { try $0.piece.freezeFrame() }
            var sections: [Section] = []
            if range.isEmpty, let alone = freezes.first {
                // A freeze alone: its frame, held for the rest of its time.
                let frame = MediaTime.min(MediaTime(seconds: (frameRate ?? Rational(30)).reciprocal), alone.duration)
                range = TimeRange(start: range.start, duration: frame)
                let rest = alone.duration - frame
                let hold = rest > .zero ? [try Freeze(at: alone.at, duration: rest, audio: alone.audio, origin: alone.origin)] : []
                return try Clip(source: file, range: range, freezes: hold, frameRate: frameRate)
            }
            let played = run.filter { !$0.piece.freeze }
            var index = 0
            while index < played.count {
                let text = played[index].piece.exact?.section
                var end = index + 1
                while text != nil, end < played.count, played[end].piece.exact?.section == text { end += 1 }
                let covered = TimeRange(start: played[index].media.start, end: played[end - 1].media.end)
                if let text, let section = try? SectionSpec(parsing: text).resolved(in: range, frameRate: frameRate),
                   section.range == covered, played[index..<end].allSatisfy({ $0.reversed == section.reversed }) {
                    sections.append(section)
                } else {
                    end = index + 1
                    if let rate = played[index].rate, rate != .normal || played[index].reversed {
                        sections.append(try Section(range: played[index].media, rate: rate, reversed: played[index].reversed,
                                                    origin: .document(played[index].piece.subject)))
                    }
                }
                index = end
            }
            do {
                return try Clip(source: file, range: range, sections: sections, freezes: freezes, frameRate: frameRate)
            } catch let error as TimeModelError {
                throw TimeModelError(error.kind, error.problem, subject: run[0].piece.subject)
            }
        }
    }
}
