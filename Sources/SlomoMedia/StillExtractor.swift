import SlomoCore

/// Finds the pictures a video shows at given instants, exactly: for each time T the decoded
/// picture with the largest presentation time at or before T (the one on screen then), in one
/// forward pass over the file however the times are ordered.
///
/// Pictures that no time needs are not decoded: packets are read ahead to the next keyframe at
/// or before the next time and decoding starts there (`StillPacketSkipper`); a time more than
/// `seekDistance` ahead of what was read is reached by seeking the file to the keyframe before
/// it. Times count from the video's first picture, as section edges do (`MediaFile.clipOrigin`).
///
/// ```swift
/// let extractor = try StillExtractor(path: "take.mov")
/// let writer = StillImageWriter(video: extractor.video)
/// try extractor.pictures(at: [.seconds(1.5), .seconds(3)]) { index, picture in
///     _ = try writer.write(picture.frame, to: "still-\(index + 1).png")
/// }
/// ```
/// Not thread-safe.
public final class StillExtractor {
    /// A picture found for a requested time.
    public struct Picture {
        /// The decoded picture, as the decoder made it (a Y'CbCr or RGB format of the stream's depth).
        public let frame: Frame
        /// The time asked for.
        public let requested: MediaTime
        /// When the picture is shown: its presentation time less the clip origin (≤ `requested`).
        public let time: MediaTime
        /// Its presentation timestamp in the stream, in ticks of `timeBase`.
        public let pts: Int64
        /// The stream's time base.
        public let timeBase: Rational
        /// Its number in presentation order from the stream's first picture (0), counted from
        /// the packets read; nil once the pass has seeked past packets it could not count.
        public let index: Int?
    }

    /// The file, as opened.
    public let file: MediaFile
    /// Its video stream's description (size, depth, colour, rotation): what a
    /// `StillImageWriter` needs.
    public let video: VideoInfo
    /// When the video ends, from its first picture: valid times are at least 0 and before it.
    public let duration: MediaTime
    /// How far ahead of the packets read a time must lie for the pass to seek to it instead of
    /// reading on (10 s by default).
    public let seekDistance: MediaTime

    private let demuxer: Demuxer
    private let stream: StreamInfo
    private let decoder: Decoder
    private let origin: MediaTime
    /// True once a pass has read the file: the next starts again from the beginning.
    private var hasRead = false

    /// Opens the video stream of `path` for decoding on `threads` threads (0: FFmpeg chooses).
    /// Throws `MediaError` for a file that cannot be read, has no video or does not say how long
    /// it is, and `FFmpegError` when FFmpeg cannot decode it.
    public init(path: String, threads: Int = 0, seekDistance: MediaTime = .seconds(10)) throws {
        demuxer = try Demuxer(path: path)
        file = demuxer.file
        guard let stream = file.videoStream, let video = stream.video else {
            throw MediaError(.noStreams, path: path, detail: "has no video stream to take a still from")
        }
        guard let duration = file.clipDuration, duration > .zero else {
            throw MediaError(.damaged, path: path, detail: "the file does not say how long its video is")
        }
        self.stream = stream
        self.video = video
        self.duration = duration
        self.seekDistance = seekDistance
        origin = file.clipOrigin
        demuxer.select(streams: [stream.index])
        decoder = try Decoder(demuxer: demuxer, stream: stream.index, threads: threads)
    }

    /// Throws unless some picture is shown at `time`: from the first picture (0) up to, not
    /// including, the end of the video. `MediaError` (`.invalidArgument`) says which way it is
    /// out and the video's duration.
    public func check(_ time: MediaTime) throws(MediaError) {
        let length = duration.formattedSeconds()
        if time < .zero {
            throw MediaError(.invalidArgument, path: file.path,
                             detail: "\(time.formattedSeconds()) s is before the video's first picture, at 0 (the video lasts \(length) s)")
        }
        if time >= duration {
            throw MediaError(.invalidArgument, path: file.path,
                             detail: "\(time.formattedSeconds()) s is at or after the end of the video, which lasts \(length) s")
        }
    }

    /// Times every `interval` from 0 to the end of the video (`--every 0.5`): 0, 0.5, 1, …
    /// while before `duration`. Throws `MediaError` (`.invalidArgument`) unless `interval` is positive.
    public func times(every interval: MediaTime) throws(MediaError) -> [MediaTime] {
        guard interval > .zero else {
            throw MediaError(.invalidArgument, detail: "an interval of \(interval) s: give a positive one, such as 0.5")
        }
        var times: [MediaTime] = []
        var time = MediaTime.zero
        while time < duration {
            times.append(time)
            time = time + interval
        }
        return times
    }

    /// Hands `body` the picture shown at each of `times` with the time's index in `times`,
    /// in order of time (equal times one after the other), decoding the file once forwards
    /// (each call is a pass of its own, from the start).
    /// Every time is checked first (`check`). Throws `MediaError` when no picture at or before a
    /// time decodes, `FFmpegError` when reading or decoding fails, and what `body` throws.
    public func pictures(at times: [MediaTime], _ body: (Int, Picture) throws -> Void) throws {
        for time in times { try check(time) }
        let order = times.indices.sorted { (times[$0], $0) < (times[$1], $1) }
        if hasRead {
            try demuxer.seek(to: origin, stream: stream.index)
            decoder.reset()
        }
        hasRead = true
        var pass = Pass(extractor: self)
        for index in order {
            let requested = times[index]
            guard let shown = try pass.picture(at: requested) else {
                throw MediaError(.damaged, path: file.path,
                                 detail: "no picture at or before \(requested.formattedSeconds()) s decodes")
            }
            try body(index, Picture(frame: shown.frame, requested: requested, time: shown.time, pts: shown.pts,
                                    timeBase: stream.timeBase, index: shown.index))
        }
    }

    /// A decoded picture and where it lies.
    private struct Decoded {
        let frame: Frame
        let time: MediaTime
        let pts: Int64
        var index: Int?
    }

    /// The state of one forward pass: the picture on screen at the last time asked for, the
    /// first one after it (already decoded), and what has been read.
    private struct Pass {
        let extractor: StillExtractor
        var skipper: StillPacketSkipper
        var shown: Decoded?
        var upcoming: Decoded?
        var flushed = false

        init(extractor: StillExtractor) {
            self.extractor = extractor
            skipper = StillPacketSkipper(demuxer: extractor.demuxer, stream: extractor.stream, origin: extractor.origin)
        }

        /// The picture shown at `target`, which is at or after every earlier target.
        mutating func picture(at target: MediaTime) throws -> Decoded? {
            if let next = upcoming, next.time <= target {
                shown = next
                upcoming = nil
            }
            // The decoder may still hold pictures after the end of the stream was sent: decode on even then.
            guard upcoming == nil else { return numbered(shown) }
            if !flushed, skipper.isFar(target, than: extractor.seekDistance) {
                try skipper.seek(to: target)
                restart()
                try decode(towards: target)
                // A container whose index is coarse may land after the target: read from the start instead.
                if shown == nil {
                    try skipper.seek(to: .zero)
                    restart()
                }
            }
            try decode(towards: target)
            return numbered(shown)
        }

        /// Decodes until the picture after `target` (or the end of the stream) comes out.
        private mutating func decode(towards target: MediaTime) throws {
            guard upcoming == nil else { return }
            while let decoded = try nextPicture(towards: target) {
                if decoded.time <= target {
                    shown = decoded
                } else {
                    upcoming = decoded
                    return
                }
            }
        }

        /// `decoded` with its index, now that every packet shown before it has been read.
        private mutating func numbered(_ decoded: Decoded?) -> Decoded? {
            guard var decoded else { return nil }
            decoded.index = skipper.index(of: decoded.pts)
            shown = decoded
            return decoded
        }

        /// Forgets what was decoded: the decoder starts again at the next packet, a keyframe.
        private mutating func restart() {
            extractor.decoder.reset()
            shown = nil
            upcoming = nil
            flushed = false
        }

        /// The next picture out of the decoder in presentation order; nil at the end of the stream.
        private mutating func nextPicture(towards target: MediaTime) throws -> Decoded? {
            let decoder = extractor.decoder
            while true {
                if let frame = try decoder.receive() {
                    guard let pts = frame.pts ?? frame.bestEffortPTS else { continue }
                    let time = MediaTime(ticks: pts, timeBase: frame.timeBase) - extractor.origin
                    // A picture before the one already shown (an open GOP's leading picture) is never on screen later.
                    if let shown, time <= shown.time { continue }
                    return Decoded(frame: frame, time: time, pts: pts, index: nil)
                }
                if flushed { return nil }
                switch try skipper.next(towards: target, after: shown?.time) {
                case .packet(let packet):
                    try decoder.sendSkippingDamaged(packet)
                case .restart(let packet):
                    restart()
                    try decoder.sendSkippingDamaged(packet)
                case .end:
                    try decoder.sendEndOfStream()
                    flushed = true
                }
            }
        }
    }
}
