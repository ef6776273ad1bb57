import SlomoCore

/// A video stream's pictures read last first, GOP by GOP: seek to the keyframe before what is
/// still missing, decode up to it, hand that GOP's pictures on in reverse, step back one GOP.
/// What plays a stretch of video backwards (a reversed section's export, a player going
/// backwards) reads it this way; memory is the pictures of one GOP.
///
/// Each picture comes with when it is shown: from `time` until `end`, the next picture's time
/// (a frame's length after the stream's last picture), and `followingEnd`, when the picture
/// after it stops being shown, for a caller that mirrors times (a picture shown forwards over
/// `[time, end)` is shown backwards from the mirror of `end`).
///
/// ```swift
/// let reader = try BackwardPictureReader(demuxer: demuxer, stream: video.index, threads: 1)
/// try reader.read(before: sectionEnd, through: sectionStart, floor: .zero) { gop in
///     for picture in gop { … }    // last first
///     return true                 // false: stop stepping back
/// }
/// ```
public final class BackwardPictureReader {
    /// A decoded picture and when it is shown, in stream time less the file's clip origin.
    public struct Picture {
        public let frame: Frame
        public let time: MediaTime
        public let end: MediaTime
        public let followingEnd: MediaTime
    }

    private let demuxer: Demuxer
    private let stream: StreamInfo
    private let decoder: Decoder
    private let origin: MediaTime
    /// A frame's length: the nominal frame period, else 0.1 s.
    public let frameLength: MediaTime
    /// Packets read and pictures decoded so far.
    public private(set) var packets = 0, decodedPictures = 0

    /// A reader of stream `index` of `demuxer`'s file (which it seeks and reads; nothing else
    /// may), decoding on `threads` threads.
    public init(demuxer: Demuxer, stream index: Int, threads: Int) throws {
        self.demuxer = demuxer
        stream = demuxer.file.streams[index]
        decoder = try Decoder(demuxer: demuxer, stream: index, threads: threads)
        origin = demuxer.file.clipOrigin
        frameLength = MediaTime(seconds: stream.video?.nominalFrameRate?.reciprocal ?? Rational(1, 10))
        demuxer.select(streams: [index])
    }

    /// What the decoder found damaged so far; nil when everything decoded cleanly.
    public var damage: Damage? { decoder.damageReport(for: stream) }

    /// Hands `body` the pictures shown before `end`, one GOP at a time, last first, back to
    /// a picture shown before `start` (the one before the picture on screen at `start`), or
    /// the stream's first picture, or one shown at or before `floor`; `body` returns false to
    /// stop earlier.
    public func read(before end: MediaTime, through start: MediaTime, floor: MediaTime,
                     _ body: ([Picture]) throws -> Bool) throws {
        var end = end
        var later: [MediaTime] = []    // the times of the (up to two) pictures shown from `end` on, once known
        let tick = MediaTime(ticks: 1, timeBase: stream.timeBase)
        while true {
            let (pictures, keyframe) = try decodeGOP(before: end, later: &later)
            guard let first = pictures.first else {
                // Nothing decodable before `end` from that keyframe (a broken GOP): step back before it.
                guard end > start, end > .zero else { return }
                end = MediaTime.min(end - frameLength, keyframe.map { $0 - tick } ?? end)
                continue
            }
            // Past the stream's last picture, the last one lasts a frame.
            if later.isEmpty { later = [pictures.last!.time + frameLength] }
            if later.count < 2 { later.append(later[0] + frameLength) }
            let times = pictures.map(\.time) + later
            let gop = pictures.indices.reversed().map { index in
                Picture(frame: pictures[index].frame, time: times[index], end: times[index + 1], followingEnd: times[index + 2])
            }
            guard try body(gop), first.time >= start, first.time > floor, first.time > .zero else { return }
            later = Array(times.prefix(2))
            end = first.time
        }
    }

    /// Decodes from the keyframe before `end` up to it: the pictures shown before `end` from
    /// that keyframe on (an open GOP's leading pictures, which do not decode from there, left
    /// out), in display order; the times of the first two pictures from `end` on go to `later`
    /// when it does not hold them yet.
    private func decodeGOP(before end: MediaTime, later: inout [MediaTime]) throws -> ([(time: MediaTime, frame: Frame)], MediaTime?) {
        let tick = MediaTime(ticks: 1, timeBase: stream.timeBase)
        try demuxer.seek(to: MediaTime.max(end - tick, .zero) + origin, stream: stream.index)
        decoder.reset()
        var pictures: [(time: MediaTime, frame: Frame)] = [], keyframe: MediaTime?
        var reachedEnd = false
        func take(_ frames: [Frame]) {
            decodedPictures += frames.count
            for frame in frames {
                guard let time = frame.presentationTime.map({ $0 - origin }) else { continue }
                if let keyframe, time < keyframe { continue }
                if time >= end {
                    if later.count < 2, !later.contains(time) { later.append(time) }
                    reachedEnd = true
                } else {
                    pictures.append((time, frame))
                }
            }
        }
        while !(reachedEnd && later.count >= 2), let packet = try demuxer.read() {
            guard packet.streamIndex == stream.index else { continue }
            if keyframe == nil { keyframe = packet.presentationTime.map { $0 - origin } }
            packets += 1
            try decoder.sendSkippingDamaged(packet)
            var frames: [Frame] = []
            while let frame = try decoder.receive() { frames.append(frame) }
            take(frames)
        }
        if !(reachedEnd && later.count >= 2) { take(try decoder.decode(nil)) }
        later.sort()
        later = Array(later.prefix(2))
        pictures.sort { $0.time < $1.time }
        return (pictures, keyframe)
    }
}
