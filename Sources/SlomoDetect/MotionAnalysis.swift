import SlomoCore
import SlomoMedia

/// A file's video reduced to `FrameMotion`s: what moved, once the camera's movement is taken
/// out. Decoding every picture is most of the cost, so it goes in two passes: first only the
/// pictures others refer to (with B-frames, half of them or fewer), then every picture in short
/// windows around where the first pass saw motion end, so that moments keep their exact frame.
/// Activity is counted per frame interval (a picture compared with one two frames back shows
/// twice the movement), so both passes read on one scale. Pictures are scaled down to a few
/// hundred pixels of brightness as they come from the decoder; none is kept beyond the next.
struct MotionAnalysis {
    /// Every frame's presentation time in clip time (from the packets, without decoding).
    let frameTimes: [MediaTime]
    /// The motion measured, in presentation order: coarse where nothing happens, every frame
    /// around the moments.
    let motion: [FrameMotion]

    /// How far either side of a coarse moment the second pass looks, in seconds.
    static let window = 0.06

    init(of file: MediaFile, picker: MomentPicker, interrupt: () throws -> Void = {}) throws {
        guard let video = file.videoStream, video.video != nil, let times = try SourceFrameTimes.of(file)?.times, times.count > 1 else {
            frameTimes = []
            motion = []
            return
        }
        frameTimes = times
        let interval = zip(times.dropFirst(), times).map { ($0 - $1).doubleSeconds }.sorted()[(times.count - 1) / 2]
        let coarse = try Self.measure(file, referencesOnly: true, interval: interval, interrupt: interrupt)
        guard coarse.count < times.count else {
            motion = coarse
            return
        }
        let ends = picker.motionEnds(in: coarse, avoiding: picker.cuts(in: coarse))
        var fine: [FrameMotion] = []
        for end in ends {
            let reach = MediaTime(value: Int64(Self.window * 1000), timescale: 1000)
            let range = TimeRange(start: max(.zero, coarse[end].time - reach), end: coarse[end].time + reach)
            fine += try Self.measure(file, referencesOnly: false, interval: interval, within: range, interrupt: interrupt)
        }
        let covered = fine.map(\.time)
        let kept = coarse.filter { frame in !covered.contains { abs(($0 - frame.time).doubleSeconds) < Self.window } }
        var merged: [MediaTime: FrameMotion] = [:]
        for frame in kept + fine { merged[frame.time] = frame }
        motion = merged.values.sorted { $0.time < $1.time }
    }

    /// The motion of the pictures of `file`'s video (only those others refer to when
    /// `referencesOnly`) within `range` (all when nil), each against the picture decoded before
    /// it, scaled to one frame `interval`.
    private static func measure(_ file: MediaFile, referencesOnly: Bool, interval: Double, within range: TimeRange? = nil,
                                interrupt: () throws -> Void) throws -> [FrameMotion] {
        guard let video = file.videoStream, let info = video.video else { return [] }
        let reader = try FrameReader(path: file.path, stream: video.index)
        reader.decoder.skipsLoopFilter = true
        if referencesOnly { reader.decoder.skipping = .nonReference }
        let origin = file.clipOrigin
        if let range { try reader.demuxer.seek(to: range.start + origin, stream: video.index) }
        let size = GrayPicture.size(sourceWidth: info.width, sourceHeight: info.height)
        let scale = Double(info.width) / Double(size.width)
        var scaler: (scaler: Scaler, width: Int, height: Int)?
        var previous: (picture: GrayPicture, time: MediaTime)?
        var motion: [FrameMotion] = []
        // In a window, the picture just before it is measured against too (the first in it needs one).
        let lead = range.map { $0.start - MediaTime(value: Int64((interval * 1.5 * 1e6).rounded()), timescale: 1_000_000) }
        while let frame = try reader.next() {
            try interrupt()
            guard let pts = frame.presentationTime else { continue }
            let time = pts - origin
            if let range, time >= range.end { break }
            if let lead, time < lead { continue }
            if scaler == nil || frame.width != scaler!.width || frame.height != scaler!.height {
                scaler = (try Scaler(width: frame.width, height: frame.height, format: frame.pixelFormat,
                                     toWidth: size.width, height: size.height, format: .gray, filter: .fastBilinear),
                          frame.width, frame.height)
            }
            let picture = GrayPicture(try scaler!.scaler.scale(frame))
            if let previous {
                let frames = max(1, (time - previous.time).doubleSeconds / interval)
                var measured = FrameMotion(time: time, previous: previous.picture, current: picture, scale: scale)
                measured.activity /= frames
                measured.spread /= frames
                if range == nil || time >= range!.start { motion.append(measured) }
            } else if range == nil {
                motion.append(FrameMotion(time: time, activity: 0, spread: 0, panX: 0, panY: 0))
            }
            previous = (picture, time)
        }
        return motion.sorted { $0.time < $1.time }
    }
}
