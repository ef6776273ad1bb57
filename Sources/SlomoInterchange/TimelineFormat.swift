import Foundation
import SlomoCore
import SlomoMedia

/// The editor timeline formats slomo writes, chosen by file extension.
public enum TimelineFormat: String, CaseIterable, Sendable {
    /// OpenTimelineIO JSON (Resolve, Kdenlive, Premiere through plugins, auto-editor).
    case otio
    /// Final Cut Pro XML 1.10.
    case fcpxml
    /// MLT XML (Shotcut, Kdenlive, `melt`).
    case mlt

    /// The format of a path's extension (`.otio`, `.fcpxml`, `.mlt`), nil for any other.
    public init?(path: String) {
        self.init(rawValue: URL(fileURLWithPath: path).pathExtension.lowercased())
    }

    /// The document text of `timeline` in this format.
    public func text(_ timeline: Timeline) throws -> String {
        switch self {
        case .otio: try OTIOWriter.text(timeline)
        case .fcpxml: FCPXMLWriter.text(timeline)
        case .mlt: MLTWriter.text(timeline)
        }
    }
}

extension Timeline {
    /// Writes the timeline to `path` in the format its extension names, whole or not at all;
    /// an existing file is replaced only with `overwrite`. Throws `.invalidValue` for an
    /// extension that names no timeline format, and the errors of `OutputPath`.
    public func write(to path: String, overwrite: Bool) throws {
        guard let format = TimelineFormat(path: path) else {
            throw TimeModelError(.invalidValue, "a timeline must end in "
                                 + TimelineFormat.allCases.map { "." + $0.rawValue }.joined(separator: ", "),
                                 subject: path)
        }
        try OutputPath.checkWritable(path, overwrite: overwrite)
        try Data(try format.text(self).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// The timeline of `composition` at the project rate `frameRate` (nil: the first source's),
    /// reading each source file's description; named after the first clip's file.
    public init(_ composition: Composition, frameRate: Rational? = nil) throws {
        var media: [TimelineMedia] = []
        for source in Set(composition.clips.map(\.source)) {
            media.append(try TimelineMedia(MediaFile(path: source)))
        }
        let name = composition.clips.first.map { URL(fileURLWithPath: $0.source).deletingPathExtension().lastPathComponent } ?? "slomo"
        try self.init(composition, media: media, name: name + " (slomo)", frameRate: frameRate)
    }
}
