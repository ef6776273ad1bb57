import ArgumentParser
import Foundation
import SlomoBatch
import SlomoCore
import SlomoExport

/// `slomo export … --cfr FPS --chunks K`: checks the export as a single pass would, cuts its
/// output frames into chunks, and runs them (here, or on Slurm with a join that waits for
/// them) through the batch machinery; prints the chunks, the critical path and the result.
enum ChunkedExportRunner {
    static func run(_ session: ExportSession, frameRate: Rational, options: ChunkOptions, input: String, dryRun: Bool,
                    printer: BatchProgressPrinter, quiet: Bool) throws {
        try session.check()
        let frames = try session.outputFrameCount(at: frameRate)
        let ranges = options.ranges(frames: frames, frameRate: frameRate)
        let folder = options.runFolder ?? session.outputPath + ".chunks"
        let rangeText = ranges.map { "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ", ")
        if dryRun && options.printChunks {
            let layout = ChunkedExport.Layout(ranges: ranges, audio: session.composition.hasAudio)
            return print(String(decoding: try JSONEncoder().encode(layout), as: UTF8.self))
        }
        if dryRun {
            print("would render \(frames) frames at \(frameRate) fps in \(ranges.count) chunk(s) (\(rangeText)) in \(folder), then join them")
            return
        }
        let jobOptions = ChunkOptions.jobOptions(Slomo.arguments.read { $0 }, input: input)
        let chunked = try ChunkedExport.prepare(input: input, options: jobOptions, output: session.outputPath,
                                                overwrite: session.settings.overwrite, frameRanges: ranges,
                                                audio: session.composition.hasAudio, runFolder: folder)
        if !quiet {
            printError("\(frames) frames in \(ranges.count) chunk(s): \(rangeText); run folder \(chunked.runFolder.path)")
        }
        switch options.engine {
        case .local: try runHere(chunked, options: options, printer: printer, quiet: quiet)
        case .slurm: try submit(chunked, options: options, printer: printer, quiet: quiet)
        }
    }

    private static func runHere(_ chunked: ChunkedExport, options: ChunkOptions, printer: BatchProgressPrinter, quiet: Bool) throws {
        let interruption = JobInterruption()
        let interrupt = Interrupt { [interruption] in interruption.interrupt(SIGINT) }
        let summary = try chunked.runHere(slomo: Batch.executable, parallelJobs: options.jobs, interruption: interruption) { printer.show($0) }
        guard let summary else {
            printError("stopped; finished chunks are kept in \(chunked.runFolder.path): run the same command again to go on")
            throw interrupt.exitCode ?? ExitCode(130)
        }
        var final = BatchProgress(total: chunked.plan.jobs.count)
        final.done = final.total
        printer.finish(final)
        if !options.keepChunks { try? FileManager.default.removeItem(atPath: chunked.runFolder.path) }
        for warning in summary.warnings { printError("warning: \(warning)") }
        guard !quiet else { return }
        print("\(chunked.joinJob.output): \(chunked.pieceJobs.count) chunks joined; " + critical(summary))
    }

    private static func submit(_ chunked: ChunkedExport, options: ChunkOptions, printer: BatchProgressPrinter, quiet: Bool) throws {
        let engine = try options.slurm.engine(for: chunked.runFolder, quiet: quiet)
        let since = Date()
        let submissions = try engine.submitPending(of: chunked.plan, retryFailed: true)
        for submission in submissions {
            let what = submission.indices == [chunked.joinJob.index] ? "the join"
                : "\(chunked.pieceJobs.count) chunk(s)" + (chunked.audioJob == nil ? "" : " and the audio")
            print("submitted \(what) as Slurm job \(submission.jobId ?? "?")")
        }
        guard options.slurm.wait else {
            print("follow it with: slomo batch status \(chunked.runFolder.path)")
            return
        }
        try BatchStatusCommand.follow(submissions, of: chunked.plan, engine: engine, since: since, printer: printer)
        guard let summary = chunked.summary else {
            throw CommandError("the join did not finish: slomo batch status \(chunked.runFolder.path)")
        }
        for warning in summary.warnings { printError("warning: \(warning)") }
        print("\(chunked.joinJob.output): \(summary.pieces.count) chunks joined; " + critical(summary))
    }

    /// `critical path with a machine a job: 3.10 s (slowest chunk 2.80 s + join 0.30 s); chunks' CPU 11.2 s, audio 1.1 s`.
    private static func critical(_ summary: ChunkedExport.Summary) -> String {
        let slowest = summary.pieces.map(\.wallSeconds).max() ?? 0
        return String(format: "critical path with a machine a job: %.2f s (slowest chunk %.2f s, audio %.2f s, + join %.2f s); chunks' CPU %.2f s",
                      summary.criticalPathSeconds, slowest, summary.audio?.wallSeconds ?? 0, summary.join.wallSeconds,
                      summary.piecesCPUSeconds)
    }
}
