/// A range of one source file with the sections that retime it: the unit a `Composition` is
/// made of.
public struct Clip: Hashable, Sendable {
    /// The source file's path, as given (edit scripts resolve it against the script's folder).
    public var source: String
    /// The range of the source file that the clip plays, in the file's time.
    public private(set) var range: TimeRange
    /// The sections, in the file's time, inside `range`, sorted by start.
    public private(set) var sections: [Section]
    /// The freeze frames, in the file's time, sorted.
    public private(set) var freezes: [Freeze]
    /// The source's frame rate when known: section edges snap to its frames, plans count them.
    public var frameRate: Rational?

    /// A clip; throws the errors of `Section.validated(_:in:)` when a section is outside
    /// `range` or sections overlap, and those of `Freeze.validated` when a freeze is outside
    /// `range`, inside a section or at the time of another.
    public init(source: String, range: TimeRange, sections: [Section] = [], freezes: [Freeze] = [],
                frameRate: Rational? = nil) throws {
        guard !range.isEmpty else {
            throw TimeModelError(.emptyRange, "the clip's range \(range) is empty", subject: source)
        }
        self.source = source
        self.range = range
        self.sections = try Section.validated(sections, in: range)
        self.freezes = try Freeze.validated(freezes, in: range, sections: self.sections)
        self.frameRate = frameRate
    }

    /// The clip's time map starting at `outputStart`, with edges snapped to `frameRate`.
    public func timeMap(outputStart: MediaTime = .zero) throws -> TimeMap {
        try TimeMap(sections: sections, freezes: freezes, source: range, outputStart: outputStart, frameRate: frameRate)
    }

    /// Adds sections; throws (leaving the clip unchanged) when they leave the range or overlap
    /// each other or a freeze.
    public mutating func add(_ newSections: [Section]) throws {
        let all = try Section.validated(sections + newSections, in: range)
        _ = try Freeze.validated(freezes, in: range, sections: all)
        sections = all
    }

    /// Adds freeze frames; throws (leaving the clip unchanged) the errors of `Freeze.validated`.
    public mutating func add(_ newFreezes: [Freeze]) throws {
        freezes = try Freeze.validated(freezes + newFreezes, in: range, sections: sections)
    }

    /// The part of the clip inside `part` (in the file's time), with sections cut to it; nil
    /// when nothing is left. A cut section keeps the ramps of its edges that survive,
    /// shortened to fit.
    func trimmed(to part: TimeRange) -> Clip? {
        guard let kept = range.intersection(part) else { return nil }
        var copy = self
        copy.range = kept
        copy.sections = sections.compactMap { $0.trimmed(to: kept) }
        copy.freezes = freezes.filter { kept.start <= $0.at && $0.at < kept.end }
        return copy
    }
}

extension Section {
    /// The part of the section inside `part`, or nil. Ramps at edges that are cut away are
    /// dropped; those that remain are shortened to fit.
    func trimmed(to part: TimeRange) -> Section? {
        guard let kept = range.intersection(part) else { return nil }
        if kept == range { return self }
        let rampIn = kept.start == range.start ? MediaTime.min(self.rampIn, kept.duration) : .zero
        let rampOut = kept.end == range.end ? MediaTime.min(self.rampOut, kept.duration - rampIn) : .zero
        return try? Section(range: kept, rate: rate, reversed: reversed, rampIn: rampIn, rampOut: rampOut,
                            ease: rampIn == .zero && rampOut == .zero ? nil : ease, audio: audio, pitch: pitch, frames: frames,
                            origin: origin)
    }
}
