import Foundation
import SlomoCore
import SlomoMedia

/// The video packets of a passthrough export in the order the output shows them, for a map
/// with reversed sections: the forward stretches as the file holds them, each reversed
/// section's packets read in blocks from its end towards its start (a seek a block, memory
/// bounded by one block) and handed on last first, each with its duration.
///
/// Only pictures that decode on their own can be reordered without decoding: every packet in a
/// reversed section must be a keyframe (ProRes, MJPEG, FFV1 coded intra, all-intra H.264 or
/// HEVC). `check` says so before anything is written.
struct ReversedPacketOrder {
    private let demuxer: Demuxer
    private let stream: Int
    private let origin: MediaTime
    /// The reversed sections' source ranges still to come, in order.
    private var reversed: ArraySlice<TimeRange>
    /// Packets of the current reversed block, first shown last (popped from the end).
    private var block: [Packet] = []
    /// Where the next block ends (source time) while a reversed section is being read.
    private var blockEnd: MediaTime?
    /// Packets shown before this are behind us after a reversed section (the forward read resumes at its end).
    private var skipBefore: MediaTime?
    /// Source seconds a block covers: `blockFrames` frames.
    private let blockLength: MediaTime

    /// Pictures read at a time from a reversed section: 4K ProRes 422 HQ is ≈ 1.1 MB a picture.
    static let blockFrames = 32

    /// The packets of stream `stream` of `demuxer`'s file (source time = packet time − `origin`)
    /// for `map`; `frameRate` sizes the blocks (0.1 s when unknown).
    init(demuxer: Demuxer, stream: Int, map: TimeMap, origin: MediaTime, frameRate: Rational?) {
        self.demuxer = demuxer
        self.stream = stream
        self.origin = origin
        reversed = map.segments.filter(\.isReversed).map(\.source)[...]
        blockLength = frameRate.map { MediaTime(seconds: Rational(Int64(Self.blockFrames)) / $0) }
            ?? MediaTime(seconds: Rational(1, 10))
    }

    /// Throws a usage error naming `path` when a reversed section of `map` holds a picture that
    /// does not decode on its own (a long-GOP source), with the way out: re-encode with `--cfr`.
    static func check(_ path: String, map: TimeMap) throws {
        let ranges = map.segments.filter(\.isReversed).map(\.source)
        guard !ranges.isEmpty else { return }
        let demuxer = try Demuxer(path: path)
        guard let video = demuxer.file.videoStream else { return }
        demuxer.select(streams: [video.index])
        let origin = demuxer.file.clipOrigin
        for range in ranges {
            try demuxer.seek(to: range.start + origin, stream: video.index)
            while let packet = try demuxer.read(), let time = packet.presentationTime.map({ $0 - origin }), time < range.end {
                guard time >= range.start, !packet.isKeyframe else { continue }
                throw ExportError(.invalidPlan, "\(path): passthrough plays a section backwards by reordering pictures, and this "
                                  + "\(video.codec.name) video's picture at \(String(format: "%.3f", time.doubleSeconds)) s leans on others (only intra-only "
                                  + "video such as ProRes, MJPEG or all-intra H.264 reorders); add --cfr source to re-encode it")
            }
        }
    }

    /// The next packet in output order; nil at the end of the file.
    mutating func next() throws -> Packet? {
        while true {
            if let packet = block.popLast() { return packet }
            if blockEnd != nil {
                try readBlock()
                continue
            }
            guard let packet = try demuxer.read() else { return nil }
            guard packet.streamIndex == stream, let time = packet.presentationTime.map({ $0 - origin }) else { return packet }
            if let skip = skipBefore {
                if time < skip { continue }
                skipBefore = nil
            }
            if let section = reversed.first, time >= section.start {
                blockEnd = section.end    // read backwards from its end; this packet comes again
                continue
            }
            return packet
        }
    }

    /// Reads the block of the current reversed section that ends at `blockEnd`, giving each
    /// packet its duration from the next one; after the section's last block (the one that
    /// reaches its start), seeks to its end to go on forwards.
    private mutating func readBlock() throws {
        guard let end = blockEnd, let section = reversed.first else { return }
        let start = MediaTime.max(section.start, end - blockLength)
        try demuxer.seek(to: start + origin, stream: stream)
        var packets: [(packet: Packet, time: MediaTime)] = []
        while let packet = try demuxer.read() {
            guard packet.streamIndex == stream, let time = packet.presentationTime.map({ $0 - origin }) else { continue }
            packets.append((packet, time))
            if time >= end { break }    // read only for the duration of the one before
        }
        let kept = packets.indices.filter { packets[$0].time >= section.start && packets[$0].time < end }
        for index in kept where packets[index].packet.duration <= 0 {
            let following = index + 1 < packets.count ? packets[index + 1].time : end
            packets[index].packet.duration = try (following - packets[index].time).ticks(in: packets[index].packet.timeBase,
                                                                                           rounding: .nearest)
        }
        block = kept.map { packets[$0].packet }
        let first = kept.first.map { packets[$0].time } ?? start
        if first <= section.start || kept.isEmpty {
            reversed.removeFirst()
            blockEnd = nil
            skipBefore = section.end
            try demuxer.seek(to: section.end + origin, stream: stream)
        } else {
            blockEnd = first
        }
    }
}
