import SlomoConcurrency
import SlomoCore
import SlomoMedia

/// The pictures of a reversed section for a CFR export, last first, decoded GOP by GOP from
/// the section's end towards its start: seek to the keyframe before what is still missing,
/// decode up to it, hand that GOP's pictures on in reverse, step back one GOP.
///
/// The renderer sees them as a clip that plays forwards (`SlotSchedule` of the mirrored map):
/// a picture shown in the source from `t` until the next picture at `t'` is shown from the
/// mirrored time `start + end − t'` until `start + end − t`, so nearest, blend and
/// interpolate work backwards as they work forwards. Memory: the pictures of one GOP that a
/// slot needs (at 4K 8-bit 4:2:0, 12.4 MB a picture; a 1 s GOP of 30 fps played at −1 into
/// 30 fps keeps all 30, 373 MB; played at −4, 8).
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

    /// One picture decoded, at its source time.
    private struct Picture {
        let time: MediaTime
        let frame: Frame
    }

    /// Decodes and hands on the section's pictures; returns what the decoder found damaged.
    func run() throws -> Damage? {
        let demuxer = try Demuxer(path: path)
        guard let video = demuxer.file.videoStream else { throw ExportError(.noVideo, "\(path): has no video stream") }
        demuxer.select(streams: [video.index])
        let origin = demuxer.file.clipOrigin
        let decoder = try Decoder(demuxer: demuxer, stream: video.index, threads: threads)
        let mirror = section.start + section.end
        let frameLength = video.video?.nominalFrameRate.map { MediaTime(seconds: $0.reciprocal) } ?? MediaTime(seconds: Rational(1, 10))
        // Where the walk starts: the section's end, or, for a chunk, just after the picture its first slot shows.
        var end = schedule.decodingStart.map { MediaTime.min(section.end, mirror - $0 + MediaTime(seconds: frameLength.seconds * Rational(3))) } ?? section.end
        var later: [MediaTime] = []    // the times of the (up to two) pictures after `end`, once known
        let tick = MediaTime(ticks: 1, timeBase: video.timeBase)
        while true {
            try demuxer.seek(to: MediaTime.max(end - tick, .zero) + origin, stream: video.index)
            decoder.reset()
            var pictures: [Picture] = [], keyframe: MediaTime?, reachedEnd = false
            func take(_ frames: [Frame]) {
                statistics.count(decoded: frames.count)
                for frame in frames {
                    guard let time = frame.presentationTime.map({ $0 - origin }) else { continue }
                    if let keyframe, time < keyframe { continue }    // an open GOP's leading pictures, undecodable from here
                    if time >= end {
                        if later.count < 2, !later.contains(time), pictures.allSatisfy({ $0.time < time }) { later.append(time) }
                        reachedEnd = true
                    } else {
                        pictures.append(Picture(time: time, frame: frame))
                    }
                }
            }
            while !reachedEnd || later.count < 2, let packet = try demuxer.read() {
                guard packet.streamIndex == video.index else { continue }
                if keyframe == nil { keyframe = packet.presentationTime.map { $0 - origin } }
                statistics.count(packets: 1)
                try decoder.sendSkippingDamaged(packet)
                var frames: [Frame] = []
                while let frame = try decoder.receive() { frames.append(frame) }
                take(frames)
                if reachedEnd && later.count >= 2 { break }
            }
            if !reachedEnd || later.count < 2 { take(try decoder.decode(nil)) }
            later.sort()
            pictures.sort { $0.time < $1.time }
            guard let first = pictures.first else {
                // Nothing decodable before `end` from this keyframe: step back before it.
                guard end > section.start else { break }
                end = MediaTime.min(end - frameLength, keyframe ?? end)
                continue
            }
            // Past the file's last picture, the last one lasts a frame.
            if later.isEmpty { later = [pictures.last!.time + frameLength] }
            if later.count < 2 { later.append(later[0] + frameLength) }
            let times = pictures.map(\.time) + later
            var needed: [(time: MediaTime, frame: Frame)] = []
            for (index, picture) in pictures.enumerated().reversed() {
                // Mirrored: this picture from mirror − (next time), the one before it in the output is the later picture.
                let shown = mirror - times[index + 1]
                let before = mirror - times[index + 2]
                let after = mirror - picture.time
                if schedule.needsFrame(at: shown, among: [before, after]) {
                    needed.append((shown, picture.frame))
                }
            }
            for item in needed {
                statistics.count(used: 1)
                try output.push(.frame(item.frame, time: item.time))
            }
            // Done once the picture before the section's start is in (the mirrored clip's last
            // neighbour), the clip has no earlier picture, or no slot needs more.
            let done = first.time < section.start || first.time <= clipStart || schedule.isPastLastSlot(mirror - times[1])
            if done { break }
            later = Array(times.prefix(2))
            end = first.time
        }
        return decoder.damageReport(for: video)
    }
}
