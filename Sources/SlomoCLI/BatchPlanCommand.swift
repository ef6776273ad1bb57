import ArgumentParser
import Foundation
import SlomoBatch

/// `slomo batch plan MANIFEST -o RUN` (or the one-line form): checks every job and writes the run folder.
struct BatchPlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Check a batch's jobs and write its run folder (nothing runs yet).",
        discussion: """
            From a manifest (YAML or JSON; docs/batch.md):
              slomo batch plan match.yaml -o runs/match

            Or in one line, every file a glob matches with the same options (any option of the \
            command, after the others); {stem} is each input's name without its extension, \
            {name} with it, {ext} its extension, {dir} its folder, {index} its place among the \
            matches:
              slomo batch plan 'takes/*.MOV' --section 2-4x0.25 -o 'out/{stem}-slow.mov' --run runs/takes
              slomo batch plan 'takes/*.MOV' --command export --section 2-4x0.25 --cfr 30 -o 'out/{stem}.mp4' --run runs/takes30

            An export with --chunks K (chunks: K in a manifest) becomes a job a chunk, one for \
            its audio and a join that waits for them, so the engine spreads a long take's chunks:
              slomo batch plan 'night/*.mov' --command export --cfr 30 --chunks 8 -o 'out/{stem}-30.mp4' --run runs/night

            Every job is checked the way --dry-run checks one command (inputs open, sections fit, \
            options and codecs are valid), outputs may collide neither with each other nor with \
            an input, and existing outputs are kept unless --overwrite (or the manifest's \
            overwrite: true). Every problem is listed at once, with its manifest line; then the \
            status is 64 and no run folder is made.

            \(ExitStatus.help)
            """)

    @Argument(help: "A manifest (.yaml, .yml, .json), or a glob of inputs for the one-line form (quote it).")
    var source: String

    @Option(name: .shortAndLong, help: ArgumentHelp("With a manifest: the run folder to make. In the one-line form: the output pattern (out/{stem}-slow.mov).", valueName: "path"))
    var output: String?

    @Option(name: .customLong("run"), help: ArgumentHelp("The run folder to make (the one-line form's; a manifest's may be given here too).", valueName: "folder"))
    var runFolder: String?

    @Option(help: ArgumentHelp("One-line form: the command each input runs: retime (default), export, stretch.", valueName: "name"))
    var command: JobCommand = .retime

    @Flag(help: "Let every job replace an existing output.")
    var overwrite = false

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("One-line form: the command's options (--section 2-4x0.25 --cfr 30 …).", visibility: .hidden))
    var commandOptions: [String] = []

    var isManifest: Bool { ["yaml", "yml", "json"].contains(URL(fileURLWithPath: source).pathExtension.lowercased()) }

    func validate() throws {
        if isManifest {
            guard commandOptions.isEmpty else {
                throw ValidationError("\(commandOptions.joined(separator: " ")): a manifest's jobs take their options from the manifest (options: under defaults or a job)")
            }
            guard (output == nil) != (runFolder == nil) else { throw ValidationError("Give the run folder to make: slomo batch plan \(source) -o RUN") }
        } else {
            guard output != nil, runFolder != nil else {
                throw ValidationError("The one-line form needs the output pattern and the run folder: slomo batch plan '\(source)' "
                                      + "--section 2-4x0.25 -o 'out/{stem}-slow.mov' --run RUN")
            }
        }
    }

    func run() throws {
        let manifest: BatchManifest
        let folder: String
        if isManifest {
            manifest = try BatchManifest(contentsOf: source, overwrite: overwrite)
            folder = (output ?? runFolder)!
        } else {
            manifest = BatchManifest(pattern: source, command: command, options: commandOptions, output: output!, overwrite: overwrite)
            folder = runFolder!
        }
        let plan = try BatchPlanner(slomo: Batch.executable).plan(manifest, runFolder: folder)
        let runFolder = try RunFolder.create(at: folder, plan: plan)
        print("planned \(plan.jobs.count) job(s) in \(runFolder.path)")
        print("run them with: slomo batch run \(folder)")
    }
}

extension JobCommand: ExpressibleByArgument {}
