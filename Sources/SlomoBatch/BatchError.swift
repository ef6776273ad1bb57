import SlomoCore

/// The one error type of batches: a plan with problems (each listed with its place), a run
/// folder that cannot be used, an engine that is missing or refused the work, a task index
/// that names no job.
public struct BatchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, for code (exit statuses, tests).
    public enum Kind: String, Hashable, Sendable {
        /// The manifest or the jobs it describes are wrong: `problems` lists every one.
        case invalidPlan
        /// The run folder is missing, holds no plan, or cannot be written.
        case invalidRunFolder
        /// The engine's tools are not installed, or the engine cannot take the run.
        case engineUnavailable
        /// The engine was asked and refused or failed (sbatch's error, for one).
        case engineFailed
        /// A task index names no job of the plan, or no index was given.
        case invalidIndex
    }

    public let kind: Kind
    /// One line that says what is wrong and, where there is one, the fix.
    public let message: String
    /// With `.invalidPlan`, every problem found, in manifest order.
    public let problems: [PlanProblem]
    /// What to do about it, as data for each front end to word (`SettingError`'s convention).
    public let hint: Hint?

    public init(_ kind: Kind, _ message: String, problems: [PlanProblem] = [], hint: Hint? = nil) {
        self.kind = kind
        self.message = message
        self.problems = problems
        self.hint = hint
    }

    /// The message, its hint worded by `hinting` (its prose by default), then one line a problem.
    public func text(hinting: (Hint) -> String = \.prose) -> String {
        let first = hint.map { "\(message) (\(hinting($0)))" } ?? message
        return ([first] + problems.map { "  " + $0.description }).joined(separator: "\n")
    }

    public var description: String { text() }
}

/// One thing wrong with a planned batch, named by where it was asked for: the manifest's file
/// and line, the job (`jobs[2]`) and the input concerned.
public struct PlanProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the job was asked for.
    public let place: ManifestPlace
    /// The input the problem is about, when it is about one.
    public let input: String?
    /// What is wrong and how to fix it.
    public let message: String

    public init(_ place: ManifestPlace, input: String? = nil, _ message: String) {
        self.place = place
        self.input = input
        self.message = message
    }

    /// `batch.yaml:12: jobs[2] (takes/b.mov): output out/b.mov is also jobs[0]'s output`.
    public var description: String {
        "\(place): " + (input.map { "\($0): " } ?? "") + message
    }
}

/// A place in a manifest: its file, the line (from 1) and the path inside the document
/// (`jobs[2].options.section`); a one-line batch names the command line instead.
public struct ManifestPlace: Codable, Hashable, Sendable, CustomStringConvertible {
    public let file: String
    public let line: Int?
    public let path: String

    public init(file: String, line: Int?, path: String) {
        self.file = file
        self.line = line
        self.path = path
    }

    /// `batch.yaml:12: jobs[2]`, or `batch.yaml: jobs[2]` without a line.
    public var description: String {
        let location = line.map { "\(file):\($0)" } ?? file
        return path.isEmpty ? location : "\(location): \(path)"
    }
}

extension Hint {
    /// A run folder that holds a run already: run it again to go on (`slomo batch run RUN`).
    public static let resumeRun = Hint("resumeRun", prose: "to go on with that run, run it again")
    /// A run folder with no plan: plan the batch into it first (`slomo batch plan`).
    public static let planRun = Hint("planRun", prose: "plan a batch into it first")
}
