import SlomoMedia

/// One planned job: the command line it runs, what it reads and writes, and an id that changes
/// whenever the input (its path, size or modification time) or the settings do, so that a
/// result always belongs to exactly the work that made it.
public struct BatchJob: Codable, Hashable, Sendable {
    /// Its place in the plan: the task index an engine runs it by (`--index`, `SLURM_ARRAY_TASK_ID`).
    public let index: Int
    /// 16 hex digits of a SHA-256 over the input's identity and the settings.
    public let id: String
    public let command: JobCommand
    /// Absolute paths.
    public let input: String
    public let output: String
    /// The command's options, as given (`--section 2-4x0.25 --cfr 30`).
    public let options: [String]
    public let overwrite: Bool
    /// The input as it was when the job was planned.
    public let inputIdentity: FileIdentity
    /// Where it was asked for (`batch.yaml:12: jobs[2]`).
    public let place: ManifestPlace
    /// The jobs that must have ended before this one runs (a chunked export's join waits for
    /// its chunks and its audio); absent from `plan.json` for a job that waits for none.
    private let after: [Int]?

    /// The indices of the jobs this one waits for.
    public var dependencies: [Int] { after ?? [] }

    init(index: Int, command: JobCommand, input: String, output: String, options: [String], overwrite: Bool,
         inputIdentity: FileIdentity, place: ManifestPlace, dependencies: [Int] = []) {
        self.index = index
        self.command = command
        self.input = input
        self.output = output
        self.options = options
        self.overwrite = overwrite
        self.inputIdentity = inputIdentity
        self.place = place
        after = dependencies.isEmpty ? nil : dependencies
        let settings = [input, String(inputIdentity.bytes), String(inputIdentity.modifiedNanoseconds), command.rawValue, output]
            + options
        id = String(FileDigest.sha256(text: settings.joined(separator: "\u{0}")).prefix(16))
    }

    /// The same job at another place in the plan.
    func numbered(_ index: Int) -> BatchJob {
        BatchJob(index: index, command: command, input: input, output: output, options: options, overwrite: overwrite,
                 inputIdentity: inputIdentity, place: place, dependencies: dependencies)
    }

    /// The command line the job runs, without the executable: `retime IN --section … -o OUT`.
    /// `--overwrite` is always given: the plan checked the output was free (or might be
    /// replaced), so a file there now is an earlier attempt's.
    public var arguments: [String] {
        [command.rawValue, input] + options + ["-o", output, "--overwrite"]
    }
}
