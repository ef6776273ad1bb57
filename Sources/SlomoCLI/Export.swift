import ArgumentParser
import Foundation
import SlomoCore
import SlomoExport
import SlomoInterchange
import SlomoMedia

/// `slomo export INPUT --cfr FPS [-o OUT] [--section …]`: a constant-frame-rate movie from a
/// retimed movie or an edit script.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a retimed movie, an edit script or a timeline at a constant frame rate (re-encoded).",
        discussion: """
            INPUT is a movie, retimed by its --section options (grammar in docs/sections.md), an \
            edit script (.yaml, .yml, .json; docs/edit-script.md) whose output settings are the \
            defaults that options here override, or an OpenTimelineIO timeline (.otio, as written \
            by Resolve, Kdenlive or `slomo timeline`; docs/interchange.md). An edit script whose \
            output mode is passthrough (and no --cfr) is exported as `slomo retime` would: video \
            copied, audio rendered.

            Every output frame n sits at n/fps; it shows the \
            source frame on screen at the source time the time map gives (nearest), a mix of the \
            two around it weighted by distance (blend), or an in-between frame built by optical \
            flow (interpolate; --interpolation fast|quality|draft). auto, the default, uses \
            nearest where a section's effective frame rate (source fps x rate) reaches the output \
            rate and interpolate where it does not; a section can choose with :frames=blend. Audio is rendered through the same map as in `slomo retime`.

            Codecs: h264 (libx264, 8-bit; HDR sources are tone-mapped to SDR BT.709 unless \
            --tone-map off), hevc (libx265; 10-bit and HDR tags kept from 10-bit sources), prores \
            (422 proxy/lt/standard/hq, 4444; 10-bit, .mov), ffv1 (lossless, .mkv or .mov).
            Details and decisions: docs/cfr.md.

            Examples:
              slomo export match.mov --section 2-4x0.25 --cfr 30 -o match-30.mp4
              slomo export match.mov --section 2-4x0.1:frames=blend --cfr 29.97
              slomo export jump.mov --section 4-6x-1 --cfr 30 -o rewind.mp4
              slomo export edit.yaml --cfr 30 --codec prores --profile hq -o edit.mov
              slomo export from-resolve.otio --cfr 30 -o edit.mp4
              slomo export IMG_0001.MOV --phone    # 30 fps, as Photos exports
              slomo export match.mov --section 2-4x0.25 --cfr 30 --timeline match.fcpxml
              slomo export match.mov --section 2-4x0.25 --cfr 30 --dry-run
              slomo export take.mov --section 60-90x0.25 --cfr 30 --chunks 8 -o take-30.mp4
              slomo export take.mov --cfr 30 --chunk-seconds 60 --engine slurm --wait

            A long take can be rendered in chunks (--chunks K or --chunk-seconds S): the output \
            frames are cut into exact ranges, each rendered by its own job (here, or as a Slurm \
            array) into a piece that starts with a keyframe, and a join muxes the pieces with \
            timestamps from the frame numbers and the audio rendered once, in sync to the \
            sample. The frames are those of a single pass. Run the same command again to resume: \
            finished chunks are kept (docs/batch.md).

            \(ExitStatus.help)
            """)

    @OptionGroup var source: EditInputOptions

    @OptionGroup var outputOptions: OutputOptions

    @OptionGroup var audioOptions: AudioOptions

    @OptionGroup(title: "Constant frame rate") var cfrOptions: CFROptions

    @OptionGroup(title: "Chunks: one long take over several jobs or machines") var chunkOptions: ChunkOptions

    @OptionGroup var progressOptions: ProgressOptions

    func run() throws {
        try progressOptions.reporting(export)
    }

    private func export(reportingTo printer: ProgressPrinter) throws {
        let edit = try source.edit(reportingTo: printer)
        let composition = edit.composition
        // The export the edit's own output settings ask for (a script's `output:`, a phone's
        // 30 fps), as the library decides it; the options override it.
        var overrides = try ExportOverrides(audio: audioOptions, output: outputOptions, video: cfrOptions)
        overrides.mode = try cfrOptions.frameRate(for: composition).map { .constantFrameRate($0) }
        overrides.part = try chunkOptions.part()
        let (settings, video) = try source.exportSettings(of: edit, overriding: overrides, video: cfrOptions)
        let mode = settings.mode
        let target = outputOptions.output ?? ExportSession.defaultOutputPath(
            for: source.input, mode: mode, codec: video.codec, inputIsEditDocument: source.kind != .movie)
        if chunkOptions.splits || settings.part != nil {
            guard case .constantFrameRate(let frameRate) = mode else {
                throw CommandError("--chunks splits a constant-frame-rate export: give --cfr FPS (passthrough is a copy already)")
            }
            if chunkOptions.splits {
                return try ChunkedExportRunner.run(ExportSession(composition: composition, to: target, settings: settings, video: video),
                                                   frameRate: frameRate, options: chunkOptions, input: source.input,
                                                   dryRun: outputOptions.dryRun, printer: BatchProgressPrinter(style: progressOptions.style),
                                                   quiet: progressOptions.quiet)
            }
        }
        if outputOptions.dryRun {
            return try ExportRunner.dryRun(composition, to: target, settings: settings, video: video,
                                           timeline: outputOptions.timeline)
        }
        try ExportRunner.run(composition, to: target, settings: settings, video: video, progress: printer,
                             timeline: outputOptions.timeline)
    }
}
