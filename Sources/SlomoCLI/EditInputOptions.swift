import ArgumentParser
import Foundation
import SlomoCore
import SlomoExport
import SlomoInterchange
import SlomoMedia

/// What a command edits: INPUT (a movie, an edit script or an OTIO timeline), the movie's
/// `--section`s and `--freeze`s, and `--phone`/`--real-time` for a phone's slow motion. Shared by `plan`,
/// `retime`, `export` and `timeline`.
struct EditInputOptions: ParsableArguments {
    @Argument(help: "A movie, an edit script (.yaml, .yml, .json) or an OTIO timeline (.otio); it is only read.",
              completion: .file())
    var input: String

    @Option(name: .customLong("section"),
            help: ArgumentHelp("A section of a movie, e.g. 2-4x0.25, 4-6x-1 (backwards), or auto for the moment slomo detects (repeatable; grammar in docs/sections.md).",
                               valueName: "spec"))
    var sections: [String] = []

    @Option(name: .customLong("freeze"),
            help: ArgumentHelp("Hold the frame shown at T for D seconds of output, e.g. 3:2, 3:2:audio=freeze (held sound; default silence). Repeatable.",
                               valueName: "T:D"))
    var freezes: [String] = []

    @Flag(help: ArgumentHelp("""
        Retime as the phone shows it: regions and rate from the .AAE/.SLM sidecar beside the movie, else from its \
        capture-rate tag with Photos' rates (85-210 fps: 0.25, from 210 fps: 0.125; export at 30 fps) around the moment \
        slomo detects. Adds to --section.
        """))
    var phone = false

    @Flag(name: .customLong("real-time"),
          help: "Play a clip whose timestamps a phone already slowed (stored below its capture rate) at real time.")
    var realTime = false

    /// What INPUT is, by its extension.
    var kind: EditInput.Kind { EditInput.kind(of: input) }

    /// The library's phone mode, nil without either flag.
    var phoneMode: EditInput.Phone? {
        phone ? .asShownOnThePhone : realTime ? .realTime : nil
    }

    func validate() throws {
        if phone && realTime { throw ValidationError("--phone and --real-time exclude each other: choose one.") }
        if kind != .movie && (phoneMode != nil || !sections.isEmpty || !freezes.isEmpty) {
            throw ValidationError("--section, --freeze, --phone and --real-time apply to a movie; \(input) carries its own sections.")
        }
    }

    /// Reads the input, saying through `printer` (plain text by default) where phone slow
    /// motion came from and, as warnings, what is damaged in the sources; also when the edit
    /// fails, as damage explains errors such as a section past a truncated movie's end.
    func edit(reportingTo printer: ProgressPrinter = ProgressPrinter(style: .none)) throws -> EditInput {
        let edit: EditInput
        do {
            edit = try EditInput(path: input, sections: sections, freezes: freezes, phone: phoneMode)
        } catch {
            if kind == .movie, let movie = try? MediaFile(path: input) { movie.damageWarnings.forEach(printer.warn) }
            throw error
        }
        for note in edit.notes { printer.note(note) }
        for damage in edit.damage { printer.warn(damage) }
        return edit
    }

    /// The export `edit` asks for with `overrides` over it (the library's policy), and its
    /// constant-frame-rate video settings, `video`'s options over the edit's; a script's
    /// mistakes in its `output:` name the script and the line (`edit.yaml:9: output.fps: …`).
    func exportSettings(of edit: EditInput, overriding overrides: ExportOverrides,
                        video: CFROptions) throws -> (settings: ExportSettings, video: VideoExportSettings) {
        do {
            let chosen = try video.videoSettings(script: edit.output)
            let settings = try ExportSettings(edit: edit.output, isEditScript: edit.kind == .script, overriding: overrides,
                                              video: chosen, for: edit.composition)
            return (settings, settings.mode == .passthrough ? VideoExportSettings() : chosen)
        } catch let error as TimeModelError where edit.kind == .script {
            throw error.inScript(at: input)
        }
    }
}
