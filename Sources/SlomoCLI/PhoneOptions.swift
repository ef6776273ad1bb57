import ArgumentParser
import Foundation
import SlomoInterchange

/// `--phone` and `--real-time`: a phone's slow motion as the edit. Shared by `plan`, `retime`,
/// `export` and `timeline`.
struct PhoneOptions: ParsableArguments {
    @Flag(help: ArgumentHelp("""
        Retime as the phone shows it: regions and rate from the .AAE/.SLM sidecar beside the movie, else from its \
        capture-rate tag with Photos' defaults (85-210 fps: 0.25, from 210 fps: 0.125; export at 30 fps). Adds to --section.
        """))
    var phone = false

    @Flag(name: .customLong("real-time"),
          help: "Play a clip whose timestamps a phone already slowed (stored below its capture rate) at real time.")
    var realTime = false

    /// The library's phone mode, nil without either flag.
    var mode: EditInput.Phone? {
        phone ? .asShownOnThePhone : realTime ? .realTime : nil
    }

    /// Throws a usage error when both flags are given or the input is not a movie.
    func validate(input: String) throws {
        if phone && realTime { throw ValidationError("--phone and --real-time exclude each other: choose one.") }
        if mode != nil && EditInput.kind(of: input) != .movie {
            throw ValidationError("--phone and --real-time apply to a movie; \(input) carries its own sections.")
        }
    }

    /// Reads the input, printing on stderr where phone slow motion came from.
    func edit(_ input: String, sections: [String]) throws -> EditInput {
        let edit = try EditInput(path: input, sections: sections, phone: mode)
        for note in edit.notes { FileHandle.standardError.write(Data("\(note)\n".utf8)) }
        return edit
    }
}
