/// The slomo commands a batch job can run: each takes one input and writes one output.
public enum JobCommand: String, Codable, CaseIterable, Hashable, Sendable {
    /// Passthrough retime (or CFR with `cfr`): a movie, an edit script, a timeline, a phone clip.
    case retime
    /// Passthrough or constant-frame-rate export of a movie, an edit script or a timeline.
    case export
    /// Audio alone, stretched.
    case stretch

    /// The options a job may not set: the batch decides where the output goes, whether it is
    /// replaced, and how the command reports (`--progress`), and a second output per job
    /// (`--timeline`, `--save-script`) would escape the batch's collision checks.
    public static let reservedOptions: Set<String> = [
        "o", "output", "overwrite", "dry-run", "progress", "quiet", "q", "help", "h", "timeline", "save-script",
    ]
}
