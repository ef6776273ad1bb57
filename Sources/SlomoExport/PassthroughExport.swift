import Foundation
import SlomoCore
import SlomoMedia

/// The passthrough mode of `ExportSession`: video packets copied bit for bit with timestamps
/// from the time map, audio tracks rendered through the same map and encoded, all written in
/// output-time order.
struct PassthroughExport {
    let session: ExportSession

    /// Containers whose time bases can hold the exact timestamps passthrough needs.
    static let containers: Set<String> = ["mov", "mp4", "m4v"]

    /// Refuses a clip with video that is trimmed inside its file: copied packets cannot be cut
    /// between keyframes, so passthrough retimes a whole file. Part of `ExportSession.check()`,
    /// so a dry run refuses it too.
    static func checkUntrimmed(_ clip: Clip) throws {
        let file = try MediaFile(path: clip.source)
        guard file.videoStream != nil, let whole = file.clipDuration, clip.range.start > .zero || clip.range.end < whole else { return }
        throw ExportError(.invalidPlan, "\(clip.source): passthrough copies the whole video, and this clip is trimmed to "
                          + "\(clip.range.start.doubleSeconds)–\(clip.range.end.doubleSeconds) s; "
                          + "export it at a constant frame rate to trim it")
    }

    /// Throws a usage error naming the container and the codec when the output's container
    /// cannot hold the copied video (msmpeg4v3 into .mp4), before anything is written.
    static func checkContainer(_ output: String, holds video: StreamInfo) throws {
        guard !Muxer.canStore(codecNamed: video.codec.name, inFileNamed: output) else { return }
        let fileExtension = URL(fileURLWithPath: output).pathExtension.lowercased()
        throw ExportError(.unsupportedContainer, "\(output): .\(fileExtension) cannot hold \(video.codec.name) video, which passthrough copies "
                          + "as it is; write .mov, or re-encode it with --cfr FPS")
    }

    func run(progress report: (ExportProgress) -> Void) throws -> ExportResult {
        guard session.composition.clips.count == 1, let clip = session.composition.clips.first else {
            throw ExportError(.invalidPlan, "passthrough exports one clip; this composition has \(session.composition.clips.count) (use constant frame rate to join clips)")
        }
        let fileExtension = session.outputExtension
        guard Self.containers.contains(fileExtension) else {
            throw ExportError(.unsupportedContainer, "\(session.outputPath): passthrough writes .mov, .mp4 or .m4v (exact timestamps need their time bases)")
        }
        let map = try clip.timeMap()
        let videoReader = try Demuxer(path: clip.source)
        let file = videoReader.file
        guard let video = file.videoStream else {
            throw ExportError(.noVideo, "\(clip.source): has no video stream to retime", hint: .stretchSoundAlone)
        }
        videoReader.select(streams: [video.index])
        let origin = file.clipOrigin

        let muxer = try Muxer(path: session.outputPath, overwrite: session.settings.overwrite)
        let videoOut = try muxer.addStream(copying: video.index, of: videoReader)
        let chosen = PassthroughTimeBase.choose(for: map, inputTimeBase: video.timeBase, origin: origin)
        muxer.setTimeBase(chosen.timeBase, stream: videoOut)
        let audioTracks = try InterleavedWriter.audioTracks(of: file, map: map, origin: origin,
                                                            settings: session.settings, muxer: muxer)
        muxer.setMetadata(file.metadata.filter { InterleavedWriter.keptTags.contains($0.key) })
        var options = ["video_track_timescale": String(chosen.timeBase.denominator)]
        // Dolby Vision configuration survives into .mp4 only with unofficial extensions allowed.
        if fileExtension != "mov" { options["strict"] = "unofficial" }
        do {
            try muxer.writeHeader(options: options)
        } catch {
            muxer.abandon()
            throw error
        }

        var retimer = PacketRetimer(map: map, origin: origin, outputTimeBase: muxer.timeBase(ofStream: videoOut))
        var order = ReversedPacketOrder(demuxer: videoReader, stream: video.index, map: map, origin: origin,
                                        frameRate: clip.frameRate)
        let structure = StructureCheck(demuxer: videoReader, stream: video.index)
        let verification = session.settings.verify ? try VideoVerification(demuxer: videoReader, stream: video.index) : nil
        defer { verification?.cancel() }
        let writer = InterleavedWriter(session: session, muxer: muxer, duration: map.outputDuration,
                                       phase: (verification == nil ? "copying video" : "copying and verifying video")
                                           + InterleavedWriter.audioPhase(audioTracks, session.settings))
        // Each packet is checked before its timestamps are rewritten; what the checks found is
        // taken at the end of the video, before the file is finished.
        let packets = try writer.write(video: {
            while let packet = try order.next() {
                guard packet.streamIndex == video.index else { continue }
                structure.check(packet)
                try verification?.submit(packet)
                try retimer.retime(packet)
                return packet
            }
            let found = structure.finish() + [try verification?.finish()].compactMap { $0 }
            for damage in found { try session.found(damage, in: clip.source, keptIn: writer.damage) }
            return nil
        }, videoStream: videoOut, audio: audioTracks, progress: report)
        return ExportResult(outputPath: session.outputPath, outputDuration: map.outputDuration,
                            videoFrames: packets, audioTracks: audioTracks.count,
                            nudgedPackets: retimer.nudgedPackets,
                            warnings: SparseFrameWarning.warnings(for: map, sourceFrameRate: clip.frameRate)
                                + audioTracks.flatMap(\.warnings),
                            damage: writer.damage.all)
    }
}
