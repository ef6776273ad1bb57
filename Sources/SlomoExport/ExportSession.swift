import Foundation
import SlomoConcurrency
import SlomoCore
import SlomoMedia
import Synchronization

/// Exports a composition to a movie file: AVFoundation's `AVAssetExportSession` for slomo.
///
/// ```swift
/// let clip = try MediaFile(path: "match.mov")
/// let edit = try Composition(retiming: clip, sections: ["2-4x0.25"])
/// let session = ExportSession(composition: edit, to: "match-slomo.mov")
/// let result = try session.run { print($0.fraction) }
/// ```
///
/// The output is written to a temporary file beside the target and renamed only on success;
/// `cancel()` (from any thread) stops the export and removes the temporary file.
public final class ExportSession: Sendable {
    public let composition: Composition
    public let outputPath: String
    public let settings: ExportSettings
    /// Codec, size, frame choice and quality of a constant-frame-rate export (unused by
    /// passthrough).
    public let video: VideoExportSettings
    /// What the decoders of a constant-frame-rate export did: packets read, pictures decoded
    /// and used (pictures no output slot needs are skipped where the codec allows).
    public let decodeStatistics = DecodeStatistics()
    private let cancelled = Atomic<Bool>(false)

    public init(composition: Composition, to outputPath: String, settings: ExportSettings = ExportSettings(),
                video: VideoExportSettings = VideoExportSettings()) {
        self.composition = composition
        self.outputPath = outputPath
        self.settings = settings
        self.video = video
    }

    /// Asks a running export to stop; it throws `ExportError` of kind `.cancelled` and leaves
    /// no file behind.
    public func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// True once `cancel()` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Runs the export on the calling thread, reporting progress now and then.
    @discardableResult
    public func run(progress: (ExportProgress) -> Void = { _ in }) throws -> ExportResult {
        try check()
        switch settings.mode {
        case .passthrough:
            if composition.clips.count == 1, let clip = composition.clips.first,
               AudioOnlyExport.applies(to: self, input: try MediaFile(path: clip.source)) {
                return try AudioOnlyExport(session: self).run(progress: progress)
            }
            return try PassthroughExport(session: self).run(progress: progress)
        case .constantFrameRate(let frameRate):
            return try ConstantFrameRateExport(session: self, frameRate: frameRate).run(progress: progress)
        }
    }

    /// Runs the export on its own thread; the stream yields progress and finishes when the
    /// file is written (or throws why not). Ending the iteration early cancels the export.
    public func progressUpdates() -> AsyncThrowingStream<ExportProgress, Error> {
        AsyncThrowingStream { continuation in
            continuation.onTermination = { [self] termination in
                if case .cancelled = termination { cancel() }
            }
            // Ends on its own with the export; nobody joins it.
            _ = PipelineWorker("slomo export") { [self] in
                do {
                    try run { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
        }
    }

    /// The frames a constant-frame-rate export at `frameRate` writes: one at every n/fps
    /// before the output's end.
    public func outputFrameCount(at frameRate: Rational) throws -> Int {
        Int(try composition.timeMap().outputDuration.ticks(in: frameRate.reciprocal, rounding: .up))
    }

    /// The output's extension, lower-cased (`mov`, `wav`): it chooses the container.
    var outputExtension: String { URL(fileURLWithPath: outputPath).pathExtension.lowercased() }

    /// Throws `.cancelled` when `cancel()` was called.
    func checkCancelled() throws {
        if isCancelled { throw ExportError(.cancelled, "\(outputPath): export cancelled; nothing was written") }
    }
}
