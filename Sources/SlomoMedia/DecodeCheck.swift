import CFFmpeg

/// Decodes a stream's packets only to find damage in the media data, which nothing short of
/// decoding sees: a flipped byte in a picture, a zeroed or overwritten chunk. Packets the
/// decoder rejects are counted and decoding goes on (it never throws for bad data); pictures
/// decoded by concealing errors are counted too. Used where packets are copied without being
/// decoded (passthrough) and by `inspect --verify`. Not thread-safe.
///
/// ```swift
/// let check = try DecodeCheck(demuxer: demuxer, stream: video.index)
/// while let packet = try demuxer.read() { check.check(packet) }
/// if let damage = check.finish() { print(damage) }   // video: 3 packets could not be decoded cleanly …
/// ```
public final class DecodeCheck {
    private let decoder: Decoder
    private let stream: StreamInfo
    /// Packets checked so far.
    public private(set) var packets = 0
    /// Pictures or blocks of samples decoded so far.
    public private(set) var decoded = 0

    /// A check of stream `index` of `demuxer`'s file. The loop filter is skipped: it cannot
    /// find damage and costs a sixth of the decoding time. The decoder runs on one thread:
    /// FFmpeg 5.1's frame threads can hand a picture on before error concealment has flagged
    /// it, and the damage would go unseen (run checks of several streams or files side by side
    /// instead).
    public init(demuxer: Demuxer, stream index: Int) throws(FFmpegError) {
        decoder = try Decoder(demuxer: demuxer, stream: index, threads: 1)
        decoder.skipsLoopFilter = true
        stream = demuxer.file.streams[index]
    }

    /// Decodes `packet` (of the checked stream, with its timestamps as read) and drops the
    /// pictures or samples.
    public func check(_ packet: Packet) {
        packets += 1
        do {
            try decoder.send(packet)
        } catch {
            decoder.countLost(packet)
        }
        drain()
    }

    /// Ends the packets checked so far as if the stream ended there, and readies the decoder
    /// for packets from elsewhere in the stream, beginning at a keyframe: what a decoder meets
    /// after a seek. Lets several checks share a stream's runs of packets.
    public func restart() {
        flush()
        decoder.reset()
    }

    /// Flushes the decoder and says what was damaged; nil when every packet decoded cleanly.
    public func finish() -> Damage? { Self.finish([self]) }

    /// Flushes the decoders of checks that each saw part of one stream and says what they
    /// found damaged together; nil when every packet decoded cleanly.
    public static func finish(_ checks: [DecodeCheck]) -> Damage? {
        for check in checks { check.flush() }
        return checks.first.flatMap { Decoder.damageReport(of: checks.map(\.decoder), for: $0.stream) }
    }

    private func flush() {
        try? decoder.sendEndOfStream()
        drain()
    }

    /// Receives every picture that is ready. An error is one lost picture; a decoder that
    /// keeps failing (as many times in a row as FFmpeg can have frames in flight) is given up on
    /// until the next packet.
    private func drain() {
        var failures = 0
        while failures < 64 {
            do {
                guard try decoder.receive() != nil else { return }
                decoded += 1
                failures = 0
            } catch {
                decoder.countLost(nil)
                failures += 1
            }
        }
    }
}
