import SlomoCore

/// One clip of an OTIO track as slomo reads it: a range of a media file and the rate it plays
/// at, before neighbouring pieces of one file are joined into a `Clip` with sections.
struct OTIOPiece {
    var file: String
    var start: MediaTime
    /// The clip's time in the track.
    var duration: MediaTime
    var timeScalar: Double
    var freeze: Bool
    var exact: TimelineMetadata.Fields?
    var subject: String

    init(file: String, start: MediaTime, duration: MediaTime, timeScalar: Double, freeze: Bool,
         exact: TimelineMetadata.Fields?, subject: String) throws {
        guard duration > .zero else {
            throw TimeModelError(.emptyRange, "lasts no time", subject: subject)
        }
        guard freeze || timeScalar > 0 else {
            throw TimeModelError(.nonPositiveRate, "plays at speed \(timeScalar); slomo cannot play media backwards "
                                 + "or frozen by a zero speed", subject: subject)
        }
        self.file = file
        self.start = start
        self.duration = duration
        self.timeScalar = timeScalar
        self.freeze = freeze
        self.exact = exact
        self.subject = subject
    }

    /// The media range the piece plays and its rate. A freeze frame holds one frame (at
    /// `frameRate`) for the clip's time, which slomo can do down to rate 1/32.
    func resolved(frameRate: Rational?) throws -> (media: TimeRange, rate: Rate) {
        do {
            if freeze {
                let frame = MediaTime(seconds: (frameRate ?? Rational(30)).reciprocal)
                let rate = try Rate(frame.seconds.dividedReportingOverflow(by: duration.seconds) ?? Rational(0))
                return (TimeRange(start: start, duration: frame), rate)
            }
            if let exact, abs(exact.rate.doubleValue - timeScalar) < 1e-9,
               abs(exact.source.start.doubleSeconds - start.doubleSeconds) < 1e-6,
               abs(exact.output.duration.doubleSeconds - duration.doubleSeconds) < 1e-6 {
                return (exact.source, try Rate(exact.rate))
            }
            guard let value = Rational.approximating(timeScalar) else {
                throw TimeModelError(.unparseable, "has the speed \(timeScalar), which is not a usable number")
            }
            let rate = try Rate(value)
            return (TimeRange(start: start, duration: try duration.multiplied(by: value)), rate)
        } catch let error as TimeModelError {
            if error.kind == .rateOutOfRange && freeze {
                throw TimeModelError(.rateOutOfRange, "freezes a frame for \(duration) s; slomo holds a frame by playing "
                                     + "it at 1/32 speed at the slowest (\(32) frames' time): shorten the freeze",
                                     subject: subject)
            }
            throw TimeModelError(error.kind, error.problem, subject: subject)
        }
    }

    /// The composition clips of `pieces`: neighbouring pieces of one file whose media ranges
    /// continue each other join one clip; pieces at a rate other than 1 become its sections,
    /// and runs of pieces that slomo marked as one section become that section again.
    static func clips(_ pieces: [OTIOPiece], sources: OTIOReader.SourceLookup) throws -> [Clip] {
        var infos: [String: EditScript.SourceInfo] = [:]
        var resolved: [(piece: OTIOPiece, media: TimeRange, rate: Rate)] = []
        for piece in pieces {
            let info: EditScript.SourceInfo
            if let known = infos[piece.file] {
                info = known
            } else {
                do { info = try sources(piece.file) } catch { throw TimeModelError(.missingFile, "\(error)", subject: piece.subject) }
                infos[piece.file] = info
            }
            var (media, rate) = try piece.resolved(frameRate: info.frameRate)
            let slack = MediaTime(seconds: (info.frameRate ?? Rational(1000)).reciprocal)
            if media.end > info.duration {
                guard media.end <= info.duration + slack else {
                    throw TimeModelError(.pastEnd, "plays media up to \(media.end.formattedSeconds()) s but "
                                         + "\(piece.file) lasts \(info.duration.formattedSeconds()) s", subject: piece.subject)
                }
                media = TimeRange(start: media.start, end: info.duration)
            }
            resolved.append((piece, media, rate))
        }

        var runs: [[(piece: OTIOPiece, media: TimeRange, rate: Rate)]] = []
        for item in resolved {
            if let last = runs.last?.last, last.piece.file == item.piece.file, last.media.end == item.media.start {
                runs[runs.count - 1].append(item)
            } else {
                runs.append([item])
            }
        }
        return try runs.map { run in
            let file = run[0].piece.file, frameRate = infos[file]!.frameRate
            let range = TimeRange(start: run[0].media.start, end: run.last!.media.end)
            var sections: [Section] = []
            var index = 0
            while index < run.count {
                let text = run[index].piece.exact?.section
                var end = index + 1
                while text != nil, end < run.count, run[end].piece.exact?.section == text { end += 1 }
                let covered = TimeRange(start: run[index].media.start, end: run[end - 1].media.end)
                if let text, let section = try? SectionSpec(parsing: text).resolved(in: range, frameRate: frameRate),
                   section.range == covered {
                    sections.append(section)
                } else {
                    end = index + 1
                    if run[index].rate != .normal {
                        sections.append(try Section(range: run[index].media, rate: run[index].rate,
                                                    origin: .document(run[index].piece.subject)))
                    }
                }
                index = end
            }
            do {
                return try Clip(source: file, range: range, sections: sections, frameRate: frameRate)
            } catch let error as TimeModelError {
                throw TimeModelError(error.kind, error.problem, subject: run[0].piece.subject)
            }
        }
    }
}
