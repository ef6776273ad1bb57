/// A range of one source file with the sections that retime it: the unit a `Composition` is
/// made of.
public struct Clip: Hashable, Sendable {
    /// The source file's path, as given (edit scripts resolve it against the script's folder).
    public var source: String
    /// The range of the source file that the clip plays, in the file's time.
    public private(set) var range: TimeRange
    /// The sections, in the file's time, inside `range`, sorted by start.
    public private(set) var sections: [Section]
    /// The source's frame rate when known: section edges snap to its frames, plans count them.
    public var frameRate: Rational?

    /// A clip; throws the errors of `Section.validated(_:in:)` when a section is outside
    /// `range` or sections overlap.
    public init(source: String, range: TimeRange, sections: [Section] = [], frameRate: Rational? = nil) throws {
        guard !range.isEmpty else {
            throw TimeModelError(.emptyRange, "the clip's range \(range) is empty", subject: source)
        }
        self.source = source
        self.range = range
        self.sections = try Section.validated(sections, in: range)
        self.frameRate = frameRate
    }

    /// The clip's time map starting at `outputStart`, with edges snapped to `frameRate`.
    public func timeMap(outputStart: MediaTime = .zero) throws -> TimeMap {
        try TimeMap(sections: sections, source: range, outputStart: outputStart, frameRate: frameRate)
    }

    /// Adds sections; throws (leaving the clip unchanged) when they leave the range or overlap.
    public mutating func add(_ newSections: [Section]) throws {
        sections = try Section.validated(sections + newSections, in: range)
    }

    /// The part of the clip inside `part` (in the file's time), with sections cut to it; nil
    /// when nothing is left. A cut section keeps the ramps of its edges that survive,
    /// shortened to fit.
    func trimmed(to part: TimeRange) -> Clip? {
        guard let kept = range.intersection(part) else { return nil }
        var copy = self
        copy.range = kept
        copy.sections = sections.compactMap { $0.trimmed(to: kept) }
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
        return try? Section(range: kept, rate: rate, rampIn: rampIn, rampOut: rampOut,
                            ease: rampIn == .zero && rampOut == .zero ? nil : ease, audio: audio, frames: frames, origin: origin)
    }
}
