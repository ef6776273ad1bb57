import SlomoCore
import SlomoMedia

/// What encodes an audio track's rendered blocks: one encoder (`AudioBlockEncoder`) or AAC's
/// lanes (`AudioEncoderLanes`). Packets come out in order, stamped in samples (1/sample rate).
protocol AudioBlockEncoding: AnyObject {
    /// The packets that `channels` (one array per channel, all the same length) completes.
    func encode(_ channels: [[Float]]) throws -> [Packet]
    /// Ends the input; the packets left.
    func finish() throws -> [Packet]
}

/// Encodes planar float audio handed over in blocks of any length: gathers whole encoder
/// frames (AAC takes exactly 1024 samples), converts them to the format the encoder takes, and
/// stamps them with the number of samples encoded before them (time base 1/sample rate). The
/// last, short frame and the encoder's delay come out of `finish()`. One thread at a time.
final class AudioBlockEncoder: AudioBlockEncoding {
    let encoder: Encoder
    /// The format of the blocks handed in (planar float).
    let format: AudioFormat
    private let toEncoder: Resampler?
    private var held: [[Float]]
    private var encodedSamples: Int64 = 0

    /// An encoder for `codec` at `depth` (lossless codecs; nil: 16 bits) taking blocks in
    /// `format` (its sample format is ignored: blocks are planar float). Throws what FFmpeg
    /// throws when the encoder or the conversion cannot be set up.
    init(codec: AudioCodec, depth: SampleDepth?, format: AudioFormat, globalHeader: Bool) throws {
        self.format = format
        let chosen = codec.encoder(depth: depth)
        encoder = try Encoder(audio: AudioEncoderSettings(codec: chosen.name, format: codec.encoderFormat(format, depth: depth),
                                                          bitRate: codec.bitRate(channels: format.channelCount),
                                                          bitsPerRawSample: chosen.bitsPerRawSample),
                              globalHeader: globalHeader)
        toEncoder = encoder.audioFormat == format ? nil : try Resampler(from: format, to: encoder.audioFormat)
        held = Array(repeating: [], count: format.channelCount)
    }

    /// The packets that `channels` (one array per channel, all the same length) completes.
    func encode(_ channels: [[Float]]) throws -> [Packet] {
        precondition(channels.count == format.channelCount, "a block has one array per channel")
        let count = channels.first?.count ?? 0
        // Codecs without a fixed frame size (PCM, FLAC) take each block as it comes.
        guard encoder.frameSize > 0 else { return count > 0 ? try encode(channels, offset: 0, count: count) : [] }
        for channel in 0..<format.channelCount { held[channel] += channels[channel] }
        var packets: [Packet] = []
        var offset = 0
        while held[0].count - offset >= encoder.frameSize {
            packets += try encode(held, offset: offset, count: encoder.frameSize)
            offset += encoder.frameSize
        }
        held = held.map { Array($0.dropFirst(offset)) }
        return packets
    }

    /// Encodes what is held back and drains the encoder.
    func finish() throws -> [Packet] {
        var packets: [Packet] = []
        if !held[0].isEmpty { packets += try encode(held, offset: 0, count: held[0].count) }
        held = held.map { _ in [] }
        if let toEncoder {
            let tail = try toEncoder.convert(nil)
            if tail.sampleCount > 0 { packets += try encoder.encode(tail) }
        }
        return packets + (try encoder.encode(nil))
    }

    /// Encodes frames `offset ..< offset + count` of planar `channels`.
    private func encode(_ channels: [[Float]], offset: Int, count: Int) throws -> [Packet] {
        let frame = try Frame(channels: channels, offset: offset, count: count, layout: format.layout,
                              sampleRate: format.sampleRate, pts: encodedSamples)
        encodedSamples += Int64(count)
        return try encoder.encode(toEncoder.map { try $0.convert(frame) } ?? frame)
    }
}
