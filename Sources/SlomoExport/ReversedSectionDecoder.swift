import SlomoConcurrency
import SlomoCore
import SlomoMedia

/// The pictures of a reversed section for a CFR export, last first (`BackwardPictureReader`:
/// GOP by GOP from the section's end), as a clip that plays forwards: the renderer sees them
/// on the mirrored map (`SlotSchedule.passes`), where a picture shown in the source from `t`
/// until the next picture at `t'` is shown from `start + end − t'` until `start + end − t`, so
/// nearest, blend and interpolate work backwards as they work forwards. Memory: one GOP of
/// decoded pictures (at 4K 8-bit 4:2:0, 12.4 MB each: 186 MB for a GOP of 15).
struct ReversedSectionDecoder {
    let path: String
    /// The section's source range, in clip time.
    let section: TimeRange
    /// Where the clip starts: no picture before it is read.
    let clipStart: MediaTime
    /// The slots of the section, on the mirrored map.
    let schedule: SlotSchedule
    let threads: Int
    let output: PipelineQueue<SourceItem>
    let statistics: DecodeStatistics

    /// Decodes and hands on the pictures a slot needs; returns what the decoder found damaged.
    func run() throws -> Damage? {
        let demuxer = try Demuxer(path: path)
        guard let video = demuxer.file.videoStream else { throw ExportError(.noVideo, "\(path): has no video stream") }
        let reader = try BackwardPictureReader(demuxer: demuxer, stream: video.index, threads: threads)
        let mirror = section.start + section.end
        // From the section's end, or, for a chunk, from just after the picture its first slot shows.
        let margin = MediaTime(seconds: reader.frameLength.seconds * Rational(3))
        let end = schedule.decodingStart.map { MediaTime.min(section.end, mirror - $0 + margin) } ?? section.end
        // Reading goes one picture past the section's start: the mirrored clip's last neighbour.
        try reader.read(before: end, through: section.start, floor: clipStart) { gop in
            for picture in gop {
                let shown = mirror - picture.end
                guard schedule.needsFrame(at: shown, among: [mirror - picture.followingEnd, mirror - picture.time]) else { continue }
                statistics.count(used: 1)
                // A new reference to the picture (its buffers are not copied): the GOP keeps its own.
                try output.push(.frame(try picture.frame.clone(), time: shown))
            }
            return !(gop.last.map { schedule.isPastLastSlot(mirror - $0.end) } ?? false)
        }
        statistics.count(packets: reader.packets, decoded: reader.decodedPictures)
        return reader.damage
    }
}
