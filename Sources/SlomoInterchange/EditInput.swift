import Foundation
import SlomoCore
import SlomoDetect
import SlomoScript
import SlomoMedia

/// What a command's input names, and the composition it makes: a movie retimed by sections,
/// an edit script with its clips and output settings, or an editor timeline (`.otio`).
public struct EditInput: Sendable {
    /// The kinds of input, told apart by extension.
    public enum Kind: Sendable {
        /// A media file, retimed by sections given beside it.
        case movie
        /// A slomo edit script (`.yaml`, `.yml`, `.json`).
        case script
        /// An OpenTimelineIO timeline (`.otio`).
        case timeline
    }

    /// How a phone's slow motion joins the sections of a movie.
    public enum Phone: Sendable {
        /// Play it the way the phone shows it: its sidecar's regions and rate, else Photos'
        /// defaults for its capture rate (`PhoneSlowMotion`).
        case asShownOnThePhone
        /// Bring a file whose timestamps are already slowed back to real time.
        case realTime
    }

    /// The kind of `path`, by its extension.
    public static func kind(of path: String) -> Kind {
        if EditScript.Format(path: path) != nil { return .script }
        if TimelineFormat(path: path) == .otio { return .timeline }
        return .movie
    }

    /// What the input is.
    public let kind: Kind
    /// The composition it describes.
    public let composition: Composition
    /// An edit script's output settings; the defaults for movies and timelines, and the
    /// phone's export frame rate for phone slow motion.
    public let output: OutputSettings
    /// What was found on the way, for people: where phone slow motion came from.
    public let notes: [String]
    /// What is damaged in the sources (`path: video ends at …`), one line each.
    public var damage: [String] {
        var seen = Set<String>()
        return composition.clips.map(\.source).filter { seen.insert($0).inserted }.flatMap { source in
            (try? MediaFile(path: source))?.damageWarnings ?? []
        }
    }

    /// Reads the input at `path`. `sections` (section syntax) retime a movie and `freezes`
    /// (freeze syntax, `3:2`) hold its frames; a script or a
    /// timeline carries its own, so giving sections with one is an error. Sources are read
    /// only for their durations and frame rates. Throws the errors of the file, the script, the
    /// timeline or the sections. With `phone`, the movie's slow motion as a phone keeps it
    /// comes first, and `sections` add to it; without a sidecar, its slow region is the one
    /// around the strongest moment `MomentDetector` finds (Photos' middle of the clip when it
    /// finds none). A section `auto` (`AutoSection`) becomes the
    /// sections around the moments `MomentDetector` finds in the movie, each said in `notes`.
    public init(path: String, sections: [String] = [], freezes: [String] = [], phone: Phone? = nil) throws {
        kind = Self.kind(of: path)
        if kind != .movie && (!sections.isEmpty || !freezes.isEmpty || phone != nil) {
            throw TimeModelError(.invalidValue, "sections, freezes and phone slow motion apply to a movie; \(path) carries its own",
                                 subject: path)
        }
        var notes: [String] = []
        switch kind {
        case .movie:
            let file = try MediaFile(path: path)
            // The moments are found once, for --section auto and --phone alike, and only if asked.
            var analysis: MomentAnalysis?
            let moments = { () throws -> MomentAnalysis in
                if let analysis { return analysis }
                let found = try MomentDetector().analyse(path: path)
                analysis = found
                return found
            }
            var all = try Self.detectingAuto(sections, moments: moments, notes: &notes)
            var settings = OutputSettings()
            if let phone {
                guard var slowMotion = try PhoneSlowMotion.detect(in: file) else {
                    throw TimeModelError(.missingFile, "has no slow-motion sidecar (.AAE, .SLM) beside it and no capture-rate "
                                         + "tag; give its sections by hand", subject: path)
                }
                if phone == .asShownOnThePhone, slowMotion.regionIsGuessed,
                   let moment = try moments().moments.first {
                    slowMotion = slowMotion.around(moment: moment.time, region: moment.section)
                }
                notes.append(slowMotion.summary)
                switch phone {
                case .asShownOnThePhone:
                    all = slowMotion.sectionTexts(clipDuration: try file.sourceInfo().duration) + all
                    settings = OutputSettings(mode: .cfr, fps: slowMotion.exportFrameRate)
                case .realTime:
                    guard let section = slowMotion.realTimeSectionText(storedFrameRate: file.clipFrameRate) else {
                        throw TimeModelError(.invalidValue, "is not stored slowed (it plays at its capture rate already)",
                                             subject: path)
                    }
                    all = [section] + all
                }
            }
            composition = try Composition(retiming: file, sections: all, freezes: freezes)
            output = settings
        case .script:
            var script = try EditScript(contentsOf: path)
            // What the sources show wrong in the script names its file and line, as loading does.
            do {
                var analyses: [String: MomentAnalysis] = [:]        // one per source, however many clips cut it
                for index in script.clips.indices where !script.clips[index].autoSections.isEmpty {
                    let clip = script.clips[index]
                    let source = script.sourcePath(of: clip)
                    let analysis = try analyses[source] ?? MomentDetector().analyse(path: source)
                    analyses[source] = analysis
                    for auto in clip.autoSections {
                        let found = try auto.sections(in: analysis)
                        notes += found.map { "\(path): clips[\(index)]: \($0.note)" }
                        script.clips[index].sections += try found.map { try SectionSpec(parsing: $0.section) }
                    }
                    script.clips[index].autoSections = []
                }
                let sources = try script.clips.map { clip in try MediaFile(path: script.sourcePath(of: clip)).sourceInfo() }
                composition = try script.composition(sources: sources)
            } catch let error as TimeModelError {
                throw error.inScript(at: path)
            }
            output = script.output
        case .timeline:
            composition = try OTIOReader(path: path) { try MediaFile(path: $0).sourceInfo() }.composition()
            output = OutputSettings()
        }
        self.notes = notes
    }

    /// `sections` with each `auto` replaced by the sections around the movie's `moments`,
    /// each noted.
    private static func detectingAuto(_ sections: [String], moments: () throws -> MomentAnalysis,
                                      notes: inout [String]) throws -> [String] {
        guard sections.contains(where: AutoSection.isAuto) else { return sections }
        let analysis = try moments()
        return try sections.flatMap { text -> [String] in
            guard AutoSection.isAuto(text) else { return [text] }
            let found = try AutoSection(parsing: text).sections(in: analysis)
            notes += found.map(\.note)
            return found.map(\.section)
        }
    }
}
