/// A versioned, scripted edit (`slomo: 1`), read from YAML or JSON: clips of source files
/// with their ranges and sections, and output settings. The schema is in docs/edit-script.md.
///
/// Clip sources are kept as written; relative ones are relative to the script's folder
/// (`baseDirectory`, see `sourcePath(of:)`). Edges may be frame numbers or `end`, so a script
/// becomes a `Composition` only once each source's duration and frame rate are known:
/// `composition(sources:)`.
public struct EditScript: Hashable, Sendable {
    /// The schema version this build reads and writes.
    public static let version = 1

    /// One clip of a script.
    public struct Clip: Hashable, Sendable {
        /// The source file, as written (relative to the script's folder unless absolute).
        public var source: String
        /// Where the clip starts in its source (default: the start).
        public var start: SectionSpec.Position
        /// Where the clip ends in its source (default: `end`, the end of the file).
        public var end: SectionSpec.Position
        /// The clip's sections, in the source's time.
        public var sections: [SectionSpec]
        /// Sections to be found in the source (`auto` in the script): the moments detected
        /// become sections before the script becomes a composition (`EditInput` does it).
        public var autoSections: [AutoSection] = []
        /// The clip's freeze frames, in the source's time.
        public var freezes: [FreezeSpec] = []

        /// A clip of `source` from `start` to `end`.
        public init(source: String, start: SectionSpec.Position = .time(.zero), end: SectionSpec.Position = .end,
                    sections: [SectionSpec] = []) {
            self.source = source
            self.start = start
            self.end = end
            self.sections = sections
        }
    }

    /// What is known about a source file: enough to resolve `end` and frame numbers.
    public struct SourceInfo: Hashable, Sendable {
        /// The file's duration.
        public var duration: MediaTime
        /// The file's video frame rate, when known.
        public var frameRate: Rational?

        /// Information about one source.
        public init(duration: MediaTime, frameRate: Rational?) {
            self.duration = duration
            self.frameRate = frameRate
        }
    }

    /// The clips, in playing order.
    public var clips: [Clip]
    /// The export settings.
    public var output: OutputSettings
    /// The folder relative sources are resolved against; not part of the document, nor of
    /// equality.
    public var baseDirectory: String?

    /// A script of `clips` with `output` settings.
    public init(clips: [Clip], output: OutputSettings = OutputSettings(), baseDirectory: String? = nil) {
        self.clips = clips
        self.output = output
        self.baseDirectory = baseDirectory
    }

    /// The path of a clip's source: as written when absolute or without a base directory,
    /// otherwise joined to `baseDirectory`.
    public func sourcePath(of clip: Clip) -> String {
        guard let baseDirectory, !baseDirectory.isEmpty, !clip.source.hasPrefix("/") else { return clip.source }
        return baseDirectory.hasSuffix("/") ? baseDirectory + clip.source : baseDirectory + "/" + clip.source
    }

    /// The composition this script describes, given each clip's source information (in clip
    /// order; `sources[i]` for `clips[i]`). Errors name the document path of the offending
    /// clip or section (`clips[1].sections[0]`), and a section past the end gives the clip's
    /// duration. A clip with `autoSections` left is an error: detection needs the source.
    public func composition(sources: [SourceInfo]) throws -> Composition {
        precondition(sources.count == clips.count, "one SourceInfo per clip")
        var composition = Composition()
        for (index, (clip, info)) in zip(clips, sources).enumerated() {
            let path = "clips[\(index)]"
            guard clip.autoSections.isEmpty else {
                throw TimeModelError(.invalidValue, "has sections to detect (auto): find its moments first "
                                     + "(EditInput, or SlomoDetect's MomentDetector and AutoSection)", subject: "\(path).sections")
            }
            let file = TimeRange(start: .zero, duration: info.duration)
            let start = try TimeModelError.located("\(path).start") { try clip.start.time(in: file, frameRate: info.frameRate) }
            let end = try TimeModelError.located("\(path).end") { try clip.end.time(in: file, frameRate: info.frameRate) }
            guard start < end else {
                throw TimeModelError(.emptyRange, "start \(start) s must be before end \(end) s", subject: path)
            }
            guard end <= info.duration else {
                throw TimeModelError(.pastEnd, "ends at \(end) s, past the end of \(clip.source), "
                                     + "which lasts \(info.duration) s", subject: "\(path).end")
            }
            let range = TimeRange(start: start, end: end)
            let sections = try clip.sections.enumerated().map { item in
                try item.element.resolved(in: range, frameRate: info.frameRate,
                                          origin: .document("\(path).sections[\(item.offset)]"))
            }
            let freezes = try clip.freezes.enumerated().map { item in
                try item.element.resolved(in: range, frameRate: info.frameRate, origin: .document("\(path).freeze[\(item.offset)]"))
            }
            composition.append(try SlomoCore.Clip(source: sourcePath(of: clip), range: range, sections: sections,
                                                  freezes: freezes, frameRate: info.frameRate))
        }
        return composition
    }

    public static func == (lhs: EditScript, rhs: EditScript) -> Bool {
        lhs.clips == rhs.clips && lhs.output == rhs.output
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(clips)
        hasher.combine(output)
    }
}
