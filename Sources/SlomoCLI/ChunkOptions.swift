import ArgumentParser
import Foundation
import SlomoBatch
import SlomoCore
import SlomoExport

/// `--chunks K` and the options of a constant-frame-rate export split into chunks
/// (docs/batch.md), and the hidden options its jobs run with (`--chunk`, `--join-piece`).
struct ChunkOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Render the output frame grid in K chunks as separate jobs, then join them exactly (with --cfr).", valueName: "K"))
    var chunks: Int?

    @Option(name: .customLong("chunk-seconds"), help: ArgumentHelp("Chunks of this many output seconds instead of --chunks.", valueName: "S"))
    var chunkSeconds: Double?

    @Option(help: "Where the chunks run: local (this machine) or slurm (an array, and a join that waits for it).")
    var engine: BatchRunCommand.Engine = .local

    @Option(name: .customLong("run"), help: ArgumentHelp("The chunks' run folder (default: OUTPUT.chunks beside the output); run again to resume.", valueName: "folder"))
    var runFolder: String?

    @Option(help: ArgumentHelp("Local engine: chunks rendered at once (one is usual: each already uses every core).", valueName: "n"))
    var jobs: Int = 1

    @Flag(name: .customLong("keep-chunks"), help: "Local engine: keep the run folder and its pieces after the join.")
    var keepChunks = false

    @OptionGroup var slurm: SlurmOptions

    @Option(name: .customLong("chunk"), help: ArgumentHelp("Render only output frames N0 to N1 (N0-N1) as a piece (.nut), video alone.", visibility: .hidden))
    var chunk: String?

    @Flag(name: .customLong("chunk-audio"), help: ArgumentHelp("Render only the whole output's audio, kept exactly (.nut), for the join.", visibility: .hidden))
    var chunkAudio = false

    @Option(name: .customLong("join-piece"), help: ArgumentHelp("A piece to join, PATH:N0-N1 (repeatable, in order).", visibility: .hidden))
    var joinPieces: [String] = []

    @Option(name: .customLong("join-audio"), help: ArgumentHelp("The join's audio, rendered by a --chunk-audio job.", visibility: .hidden))
    var joinAudio: String?

    @Flag(name: .customLong("print-chunks"), help: ArgumentHelp("With --dry-run: print the chunks as JSON (for slomo batch plan).", visibility: .hidden))
    var printChunks = false

    /// True when the export is to be split.
    var splits: Bool { chunks != nil || chunkSeconds != nil }

    func validate() throws {
        if chunks != nil && chunkSeconds != nil { throw ValidationError("Give either --chunks or --chunk-seconds, not both.") }
        if let chunks, chunks < 1 { throw ValidationError("--chunks \(chunks): give 1 or more") }
        if let chunkSeconds, !(chunkSeconds > 0) { throw ValidationError("--chunk-seconds \(chunkSeconds): give a positive number of seconds") }
        if jobs < 1 { throw ValidationError("--jobs \(jobs): give 1 or more") }
        if engine == .local && slurm.anyGiven {
            throw ValidationError("--sbatch-arg, --max-parallel, --wait and --assume-shared are for --engine slurm")
        }
    }

    /// The part of the export this run makes: a piece (`--chunk`), the audio (`--chunk-audio`),
    /// the join (`--join-piece`), or nil.
    func part() throws -> ExportPart? {
        if chunkAudio { return .audio }
        if let chunk {
            guard let frames = Self.frames(chunk) else { throw CommandError("--chunk expects output frames as N0-N1, got '\(chunk)'") }
            return .frames(frames)
        }
        guard !joinPieces.isEmpty else { return nil }
        return .join(try joinPieces.map { text in
            guard let colon = text.lastIndex(of: ":"), let frames = Self.frames(String(text[text.index(after: colon)...])) else {
                throw CommandError("--join-piece expects PATH:N0-N1, got '\(text)'")
            }
            return ExportPart.Piece(path: String(text[..<colon]), frames: frames)
        }, audio: joinAudio)
    }

    /// The chunks' frame ranges for an export of `frames` output frames at `frameRate`.
    func ranges(frames: Int, frameRate: Rational) -> [Range<Int>] {
        let count = chunks ?? Int((Double(frames) / max(1, (chunkSeconds ?? 1) * frameRate.doubleValue)).rounded(.up))
        return ExportPart.ranges(frames: frames, chunks: count)
    }

    private static func frames(_ text: String) -> Range<Int>? {
        let parts = text.split(separator: "-")
        guard parts.count == 2, let start = Int(parts[0]), let end = Int(parts[1]), 0 <= start, start < end else { return nil }
        return start..<end
    }

    /// The export's own options, for its chunk jobs: `arguments` (this command line after the
    /// program's name) without the command, the input, where the output goes and how this run
    /// reports, and without the chunk options themselves.
    static func jobOptions(_ arguments: [String], input: String) -> [String] {
        let run = ChunkedExport.runOptions
        let valued = run.valued.union(ChunkedExport.chunkingOptions)
            .union(["-o", "--output", "--progress", "--timeline", "--chunk", "--join-piece", "--join-audio"])
        let flags = run.flags.union(["--overwrite", "-q", "--quiet", "--dry-run", "--chunk-audio", "--print-chunks"])
        var options = ChunkedExport.removing(valued: valued, flags: flags, from: Array(arguments.dropFirst())).kept   // past the command
        if let position = options.firstIndex(of: input) { options.remove(at: position) }
        return options
    }
}
