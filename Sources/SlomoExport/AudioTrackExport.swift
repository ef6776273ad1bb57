import SlomoAudio
import SlomoCore
import SlomoMedia

/// One audio track of an export: decoded from its own reader of the input, rendered through
/// the time map with `AudioRenderer` (exactly round(outEnd·sr) − round(outStart·sr) samples
/// per segment), and encoded. Packets come out on demand, in order, with timestamps counted
/// in output samples, so memory stays bounded whatever the input's length.
final class AudioTrackExport {
    let streamIndex: Int
    let outputStream: Int
    let encoder: Encoder
    private let reader: FrameReader
    private let toPlanarFloat: Resampler
    private let toEncoder: Resampler?
    private let renderer: AudioRenderer
    private let format: AudioFormat
    private var pending: [Packet] = []
    private var rendered: [[Float]]
    private var encodedSamples: Int64 = 0
    private var finished = false

    /// Opens a reader of `path` for stream `index`, sets up rendering through `map` (whose
    /// source time 0 is the input's `origin`) and adds an encoded stream to `muxer`.
    init(path: String, stream index: Int, map: TimeMap, origin: MediaTime, algorithm: AudioAlgorithm,
         codec: AudioCodec, muxer: Muxer) throws {
        reader = try FrameReader(path: path, stream: index)
        streamIndex = index
        // The first frame says what the decoder really produces (a WAV's layout may be only a
        // channel count) and where the samples start (not necessarily at 0).
        guard let first = try reader.next() else {
            throw ExportError(.noAudio, "\(path): audio stream \(index) holds no samples")
        }
        let source = first.audioFormat
        format = AudioFormat(sampleRate: source.sampleRate, layout: source.layout.specified, sampleFormat: .floatPlanar)
        toPlanarFloat = try Resampler(from: source, to: format)
        encoder = try Encoder(audio: AudioEncoderSettings(codec: codec.encoderName,
                                                          format: Self.encoderFormat(codec, format),
                                                          bitRate: codec.bitRate(channels: format.channelCount)),
                              globalHeader: muxer.needsGlobalHeader)
        toEncoder = encoder.audioFormat == format ? nil : try Resampler(from: format, to: encoder.audioFormat)
        outputStream = try muxer.addStream(for: encoder)
        rendered = Array(repeating: [], count: format.channelCount)

        let firstTime = (first.presentationTime ?? .zero) - origin
        let firstFrames = try toPlanarFloat.convert(first).floatChannels()
        var queued: [[Float]]? = firstFrames
        let pull: () throws -> AudioBuffer? = { [reader, toPlanarFloat] in
            if let first = queued {
                queued = nil
                return AudioBuffer(planar: first)
            }
            while let frame = try reader.next() {
                let converted = try toPlanarFloat.convert(frame)
                if converted.sampleCount > 0 { return AudioBuffer(planar: converted.floatChannels()) }
            }
            let tail = try toPlanarFloat.convert(nil)
            return tail.sampleCount > 0 ? AudioBuffer(planar: tail.floatChannels()) : nil
        }
        let streaming = StreamingAudioSource(channelCount: format.channelCount,
                                             history: AudioRenderer.maximumLookBehind(sampleRate: format.sampleRate),
                                             pull: pull)
        renderer = try AudioRenderer(map: map, source: streaming, sampleRate: format.sampleRate,
                                     algorithm: algorithm, sourceTimeOfFrameZero: firstTime)
    }

    /// The output time base of this track's packets.
    var timeBase: Rational { encoder.timeBase }

    /// The next encoded packet in output order, or nil when the track is done.
    func nextPacket() throws -> Packet? {
        while pending.isEmpty && !finished { try produce() }
        return pending.isEmpty ? nil : pending.removeFirst()
    }

    /// Renders one block and encodes whatever full encoder frames it completes; at the end,
    /// encodes the remainder and flushes the encoder.
    private func produce() throws {
        if let block = try renderer.nextBlock(maxFrames: 8192) {
            for channel in 0..<format.channelCount { rendered[channel] += block.channels[channel] }
            let frameSize = encoder.frameSize > 0 ? encoder.frameSize : 4096
            var offset = 0
            while rendered[0].count - offset >= frameSize {
                try encode(offset: offset, count: frameSize)
                offset += frameSize
            }
            rendered = rendered.map { Array($0.dropFirst(offset)) }
        } else {
            if !rendered[0].isEmpty { try encode(offset: 0, count: rendered[0].count) }
            rendered = rendered.map { _ in [] }
            if let toEncoder {
                let tail = try toEncoder.convert(nil)
                if tail.sampleCount > 0 { try send(tail) }
            }
            pending += try encoder.encode(nil)
            finished = true
        }
    }

    private func encode(offset: Int, count: Int) throws {
        let frame = try Frame(channels: rendered, offset: offset, count: count, layout: format.layout,
                              sampleRate: format.sampleRate, pts: encodedSamples)
        encodedSamples += Int64(count)
        try send(toEncoder.map { try $0.convert(frame) } ?? frame)
    }

    private func send(_ frame: Frame) throws {
        pending += try encoder.encode(frame)
    }

    /// The encoder's input format: what the codec takes, at the source's rate and layout.
    private static func encoderFormat(_ codec: AudioCodec, _ source: AudioFormat) -> AudioFormat {
        var format = source
        switch codec {
        case .aac: format.sampleFormat = .floatPlanar
        case .alac: format.sampleFormat = SampleFormat.int16Planar
        case .flac: format.sampleFormat = .int16
        case .pcm: format.sampleFormat = .int16
        }
        return format
    }
}
