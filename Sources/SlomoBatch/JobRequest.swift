/// One job as a manifest (or the one-line form) asks for it, before its inputs are expanded and
/// checked: a command, an input (or a glob of inputs), an output (or an output pattern with
/// `{stem}`), the command's options as arguments, and whether an existing output is replaced.
public struct JobRequest: Hashable, Sendable {
    public var command: JobCommand
    /// A path, or with `expands` a glob pattern (`takes/*.MOV`), relative to the manifest's folder.
    public var input: String
    /// True for `inputs:` (a glob that may match many files), false for `input:` (one file).
    public var expands: Bool
    /// The output path, or a pattern naming each input's parts: `{stem}`, `{name}`, `{ext}`,
    /// `{dir}` (the input's folder) and `{index}` (its place among the glob's matches).
    public var output: String
    /// The command's options as it takes them on the command line: `--section 2-4x0.25 --cfr 30`.
    public var options: [String]
    public var overwrite: Bool
    /// Where it was asked for.
    public var place: ManifestPlace

    public init(command: JobCommand, input: String, expands: Bool, output: String, options: [String], overwrite: Bool,
                place: ManifestPlace) {
        self.command = command
        self.input = input
        self.expands = expands
        self.output = output
        self.options = options
        self.overwrite = overwrite
        self.place = place
    }
}
