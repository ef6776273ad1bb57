import Foundation
import SlomoCore
import SlomoScript

/// What a batch is asked to do: job requests read from a manifest (YAML or JSON, schema in
/// docs/batch.md) or from the one-line form, and the folder their relative paths start from.
///
/// ```yaml
/// slomo-batch: 1
/// defaults:
///   command: retime
///   options: {section: [2-4x0.25], audio: spectral}
/// jobs:
///   - inputs: takes/*.MOV
///     output: out/{stem}-slow.mov
///   - input: finish.mov
///     output: out/finish-30.mp4
///     options: {cfr: 30}
/// ```
public struct BatchManifest: Sendable {
    /// The manifest format this build reads (`slomo-batch: 1`).
    public static let version = 1

    public var requests: [JobRequest]
    /// The folder relative inputs and outputs start from: the manifest's, or the working folder.
    public var baseDirectory: String
    /// Where the requests came from: the manifest's absolute path, or `command line`.
    public var source: String
    /// What is wrong in the manifest itself (unknown keys, wrong types, missing keys, reserved
    /// options), each with its line; the planner lists them with the jobs' own problems.
    public var problems: [PlanProblem] = []

    public init(requests: [JobRequest], baseDirectory: String, source: String) {
        self.requests = requests
        self.baseDirectory = baseDirectory
        self.source = source
    }

    /// The one-line form: every file `pattern` matches, run as `command options… -o output`.
    public init(pattern: String, command: JobCommand, options: [String], output: String, overwrite: Bool,
                baseDirectory: String = FileManager.default.currentDirectoryPath) {
        let place = ManifestPlace(file: "command line", line: nil, path: "")
        let expands = pattern.contains(where: { "*?[".contains($0) })
        requests = [JobRequest(command: command, input: pattern, expands: expands, output: output, options: options,
                               overwrite: overwrite, place: place)]
        self.baseDirectory = baseDirectory
        source = place.file
    }

    /// Reads the manifest at `path`, keeping every job it can read and every problem it finds
    /// (`problems`); `.invalidPlan` only when the file cannot be read at all. `overwrite` (the
    /// command line's) applies to every job.
    public init(contentsOf path: String, overwrite: Bool = false) throws(BatchError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BatchError(.invalidPlan, "\(path): cannot be read (does it exist?)")
        }
        let file = URL(fileURLWithPath: path)
        baseDirectory = file.standardizedFileURL.deletingLastPathComponent().path
        source = file.standardizedFileURL.path
        let reader = ManifestReader(file: path, overwrite: overwrite)
        requests = reader.requests(in: String(decoding: data, as: UTF8.self))
        problems = reader.problems
    }
}

/// Reads a manifest's document into job requests, collecting problems instead of stopping at
/// the first, each with the line its path is on.
private final class ManifestReader {
    let file: String
    let overwrite: Bool
    var problems: [PlanProblem] = []
    private var lines: [String: Int] = [:]

    init(file: String, overwrite: Bool) {
        self.file = file
        self.overwrite = overwrite
    }

    func requests(in text: String) -> [JobRequest] {
        let root: DocumentNode
        do {
            root = try DocumentNode(parsing: text)
        } catch {
            let line = (error as? TimeModelError)?.line
            problems.append(PlanProblem(ManifestPlace(file: file, line: line, path: ""), "\(error)"))
            return []
        }
        lines = root.lines()
        guard let keys = attempt({ try mapping(root, allowed: ["slomo-batch", "defaults", "jobs"], required: ["slomo-batch", "jobs"]) })
        else { return [] }
        if let version = attempt({ try keys["slomo-batch"]!.integer() }), version != BatchManifest.version {
            problems.append(PlanProblem(place("slomo-batch"), "version \(version) is not supported; this slomo reads version \(BatchManifest.version)"))
        }
        let defaults = keys["defaults"].flatMap { node in attempt { try settings(node, allowingInput: false) } } ?? JobSettings()
        guard let jobs = attempt({ try keys["jobs"]!.sequence() }) else { return [] }
        if jobs.isEmpty { problems.append(PlanProblem(place("jobs"), "the manifest has no jobs")) }
        return jobs.compactMap { node in attempt { try request(node, defaults: defaults) } }
    }

    /// Runs `body`; a thrown error becomes a problem at the path it names.
    private func attempt<T>(_ body: () throws -> T) -> T? {
        do {
            return try body()
        } catch let error as TimeModelError {
            let path = error.subject == "document" ? "" : error.subject ?? ""
            problems.append(PlanProblem(place(path), error.problem))
        } catch let problem as PlanProblem {
            problems.append(problem)
        } catch {
            problems.append(PlanProblem(place(""), "\(error)"))
        }
        return nil
    }

    /// The values of a mapping by key, like `DocumentNode.mapping`, but an unknown key is a
    /// problem of its own and reading goes on, so that every one is listed.
    private func mapping(_ node: DocumentNode, allowed: [String], required: [String] = []) throws -> [String: DocumentNode] {
        var values: [String: DocumentNode] = [:]
        for (key, value) in try node.entries() {
            if allowed.contains(key) {
                values[key] = value
            } else {
                problems.append(PlanProblem(place(value.path), "unknown key '\(key)'; expected one of " + allowed.joined(separator: ", ")))
            }
        }
        for key in required where values[key] == nil {
            throw TimeModelError(.missingKey, "missing required key '\(key)'", subject: node.path)
        }
        return values
    }

    private func place(_ path: String) -> ManifestPlace {
        // A path the document does not have (an error about a missing key) takes its parent's line.
        var probe = path
        while lines[probe] == nil, let cut = probe.lastIndex(where: { $0 == "." || $0 == "[" }) { probe = String(probe[..<cut]) }
        return ManifestPlace(file: file, line: lines[probe], path: path)
    }

    private func request(_ node: DocumentNode, defaults: JobSettings) throws -> JobRequest {
        let own = try settings(node, allowingInput: true)
        let merged = defaults.overridden(by: own)
        guard let output = merged.output else {
            throw PlanProblem(place(node.path), "missing required key 'output' (a path, or a pattern such as out/{stem}-slow.mov)")
        }
        guard let (input, expands) = merged.input else {
            throw PlanProblem(place(node.path), "missing required key 'input' (one file) or 'inputs' (a glob such as takes/*.MOV)")
        }
        return JobRequest(command: merged.command ?? .retime, input: input, expands: expands, output: output,
                          options: merged.arguments, overwrite: overwrite || (merged.overwrite ?? false), place: place(node.path))
    }

    private func settings(_ node: DocumentNode, allowingInput: Bool) throws -> JobSettings {
        let allowed = ["command", "output", "options", "overwrite"] + (allowingInput ? ["input", "inputs"] : [])
        let keys = try mapping(node, allowed: allowed)
        var settings = JobSettings()
        settings.command = try keys["command"]?.choice(JobCommand.self)
        settings.output = try keys["output"]?.string("an output path or pattern")
        if let overwrite = keys["overwrite"] {
            guard let value = overwrite.boolean else { throw overwrite.wrongType("true or false") }
            settings.overwrite = value
        }
        switch (keys["input"], keys["inputs"]) {
        case (let one?, nil): settings.input = (try one.string("a file path"), false)
        case (nil, let many?): settings.input = (try many.string("a glob pattern such as takes/*.MOV"), true)
        case (_?, let many?): throw TimeModelError(.invalidValue, "give either input (one file) or inputs (a glob), not both", subject: many.path)
        case (nil, nil): break
        }
        if let options = keys["options"] { settings.options = try self.options(options) }
        return settings
    }

    /// A mapping of long option names to values: text or a number (`--key value`), a list
    /// (the option repeated), `true` (a flag given) or `false` (not given).
    private func options(_ node: DocumentNode) throws -> [String: [String]] {
        var options: [String: [String]] = [:]
        for (name, value) in try node.entries() {
            guard name.first?.isLetter == true, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
                throw TimeModelError(.invalidValue, "'\(name)' is not an option name; write it as on the command line without "
                                     + "the dashes (cfr, section, audio-codec)", subject: value.path)
            }
            guard !JobCommand.reservedOptions.contains(name) else {
                throw TimeModelError(.invalidValue, "'\(name)' is not a job option: the batch sets where outputs go, whether they "
                                     + "are replaced (the job's overwrite key) and how progress is reported", subject: value.path)
            }
            if let flag = value.boolean {
                options[name] = flag ? ["--\(name)"] : []
            } else if value.isSequence {
                options[name] = try value.sequence().flatMap { ["--\(name)", try $0.text("text or a number")] }
            } else {
                options[name] = ["--\(name)", try value.text("text, a number, a list or true/false")]
            }
        }
        return options
    }
}

/// The settings a job or the defaults give; a job's override the defaults' key by key (for
/// options, option by option).
private struct JobSettings {
    var command: JobCommand?
    var input: (String, Bool)?
    var output: String?
    var options: [String: [String]] = [:]
    var overwrite: Bool?

    func overridden(by job: JobSettings) -> JobSettings {
        var merged = self
        merged.command = job.command ?? command
        merged.input = job.input
        merged.output = job.output ?? output
        merged.options.merge(job.options) { $1 }
        merged.overwrite = job.overwrite ?? overwrite
        return merged
    }

    /// The options as arguments, in option-name order so that the same settings give the same job id.
    var arguments: [String] { options.keys.sorted().flatMap { options[$0]! } }
}
