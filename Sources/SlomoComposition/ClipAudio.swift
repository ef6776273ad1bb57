import Foundation
import SlomoAudio
import SlomoCore
import SlomoMedia

/// What one clip contributes to an audio track of an export or of playback: audio stream `stream` of the file
/// at `path`, rendered through the clip's `map` (whose source time 0 is the file's `origin`),
/// or, when `stream` is nil (the clip has no such track), silence for as long as the map lasts.
package struct AudioPart {
    package let path: String
    package let stream: Int?
    package let map: TimeMap
    package let origin: MediaTime

    package init(path: String, stream: Int?, map: TimeMap, origin: MediaTime) {
        self.path = path
        self.stream = stream
        self.map = map
        self.origin = origin
    }

    /// Samples the part fills at `sampleRate`: `round(end·sr) − round(start·sr)` of its map's
    /// output range, so parts placed end to end never drift.
    package func frameCount(sampleRate: Int) throws -> Int {
        let grid = Rational(1, Int64(sampleRate))
        return Int(try map.output.end.ticks(in: grid, rounding: .nearest) - map.output.start.ticks(in: grid, rounding: .nearest))
    }
}

/// One part of an audio track, ready to render in the track's format: the clip's stream
/// decoded, converted (sample rate, layout) and rendered through the clip's map by
/// `AudioRenderer`, or silence. Either way it yields exactly `frameCount` frames: the samples
/// between the map's output start and end, each rounded to the track's sample grid, so parts
/// placed end to end neither overlap nor leave gaps. Where the stream's timestamps jump ahead
/// (a packet lost or rejected as damaged), silence fills the gap, so that what follows stays
/// in sync.
final class ClipAudio {
    /// The reader of a part's stream (`AudioFrames`: FFmpeg's decoder, or a WAV's samples read
    /// directly) with its first frame read: that frame says what the decoder really produces (a WAV's layout may be only a channel count) and where the
    /// samples start (not necessarily at 0).
    struct Opened {
        let reader: any AudioFrameReading
        let first: Frame
        /// How far before a part's start decoding begins: more than the renderer reads before
        /// a segment (its 8192-frame pre-roll, at most 1 s at 8 kHz and above), with room for
        /// the decoder to settle after the seek. A player starts a part at every rate change,
        /// so this is decoded each time (the renderer's whole 8 s look-behind took 40–80 ms).
        static let seekMargin = MediaTime(value: 2, timescale: 1)

        /// The first frame's rate and layout, as planar float.
        var format: AudioFormat {
            let source = first.audioFormat
            return AudioFormat(sampleRate: source.sampleRate, layout: source.layout.specified, sampleFormat: .floatPlanar)
        }

        /// Opens `part`'s stream; nil for a silent part. A part that starts well into its
        /// file seeks to `seekMargin` before its start first (the first frame says where
        /// decoding really starts).
        init?(_ part: AudioPart) throws {
            guard let stream = part.stream else { return nil }
            reader = try AudioFrames.open(path: part.path, stream: stream)
            let target = part.origin + part.map.source.start - Self.seekMargin
            if target > part.origin { try reader.seek(to: target) }
            guard let first = try reader.next() else {
                throw CompositionError(.noAudio, "\(part.path): audio stream \(stream) holds no samples")
            }
            self.first = first
        }
    }

    let frameCount: Int
    let channelCount: Int
    /// The file the part comes from.
    let source: String
    private let renderer: AudioRenderer?
    private let reader: (any AudioFrameReading)?
    private var delivered = 0

    /// The longest jump ahead in the stream's timestamps that is filled with silence; a longer
    /// one is a timestamp discontinuity, not lost audio, and is played through.
    static let longestGap = MediaTime(value: 10, timescale: 1)
    /// Jumps up to this long are rounding of the timestamps (Matroska counts milliseconds).
    static let timestampJitter = MediaTime(value: 1, timescale: 1000)

    /// What decoding the part met damaged so far; nil when everything decoded cleanly.
    var damage: Damage? { reader?.damage }

    /// `part` rendered at `format`'s sample rate and layout (`opened` is its opened stream, nil
    /// for silence) with `algorithm` (and `spectralEngine` for spectral segments), `parallelism`
    /// pieces at a time (the renderer's default when nil), with `prerollSeconds` of warm-up
    /// (the renderer's default when nil).
    init(_ part: AudioPart, opened: Opened?, format: AudioFormat, algorithm: TimePitchAlgorithm,
         spectralEngine: SpectralEngine, parallelism: Int? = nil, prerollSeconds: Double? = nil) throws {
        frameCount = try part.frameCount(sampleRate: format.sampleRate)
        channelCount = format.channelCount
        source = part.path
        guard let opened else {
            renderer = nil
            reader = nil
            return
        }
        let convert = try Resampler(from: opened.first.audioFormat, to: format)
        var queued: Frame? = opened.first
        let reader = opened.reader
        self.reader = reader
        var expected: MediaTime?    // where the next frame starts if none is missing
        let pull: () throws -> AudioBuffer? = {
            while let frame = try queued.take() ?? reader.next() {
                if let start = frame.presentationTime, let gap = expected.map({ start - $0 }),
                   gap > Self.timestampJitter, gap <= Self.longestGap {
                    expected = start
                    queued = frame
                    let grid = Rational(1, Int64(format.sampleRate))
                    return AudioBuffer(channelCount: format.channelCount, frameCount: Int(try gap.ticks(in: grid, rounding: .nearest)))
                }
                expected = frame.presentationTime.map { $0 + MediaTime(value: Int64(frame.sampleCount), timescale: Int64(frame.sampleRate)) }
                let converted = try convert.convert(frame)
                if converted.sampleCount > 0 { return AudioBuffer(planar: converted.floatChannels()) }
            }
            let tail = try convert.convert(nil)
            return tail.sampleCount > 0 ? AudioBuffer(planar: tail.floatChannels()) : nil
        }
        let source = StreamingAudioSource(channelCount: format.channelCount,
                                          history: AudioRenderer.maximumLookBehind(sampleRate: format.sampleRate),
                                          pull: pull)
        renderer = try AudioRenderer(map: part.map, source: source, sampleRate: format.sampleRate, algorithm: algorithm,
                                     spectralEngine: spectralEngine, sourceTimeOfFrameZero: (opened.first.presentationTime ?? .zero) - part.origin,
                                     parallelism: parallelism ?? ProcessInfo.processInfo.activeProcessorCount,
                                     prerollSeconds: prerollSeconds)
    }

    /// Frames not yet delivered.
    var remaining: Int { frameCount - delivered }

    /// The next at most `maxFrames` frames, in order; nil after `frameCount` frames.
    func nextBlock(maxFrames: Int) throws -> AudioBuffer? {
        let wanted = min(maxFrames, remaining)
        guard wanted > 0 else { return nil }
        var block = try renderer?.nextBlock(maxFrames: wanted) ?? AudioBuffer(channelCount: channelCount, frameCount: wanted)
        if block.frameCount == 0 { block.appendSilence(wanted) }
        delivered += block.frameCount
        return block
    }
}
