import SlomoAudio
import SlomoCore
import SlomoMedia

/// A composition's first audio track as a player hears it: from output time `start` on,
/// played `rate` times faster on top of the composition's own sections. Each clip's map is
/// trimmed to where playing starts and scaled by the rate (`TimeMap.trimmed(fromOutput:)`,
/// `scaled(by:)`), and rendered by the same `JoinedAudio` and `AudioRenderer` an export uses,
/// so what is heard is what an export at that rate writes.
///
/// Frame `k` of the stream plays at composition output time `startTime + k·rate/sampleRate`.
public final class PlaybackAudio {
    /// Sample rate and channel count of the stream (the first audible clip's).
    public let sampleRate: Int
    public let channelCount: Int
    /// The composition output time of the stream's first frame (on the sample grid of the
    /// scaled map, so within one sample of the `start` asked for).
    public let startTime: MediaTime
    /// The rate on top of the composition's sections.
    public let rate: Rate
    /// Semitones the sound is moved by, its length kept (0: the source's pitch).
    public let pitch: Double
    private let joined: JoinedAudio
    /// Source that warms a stretcher up before the stream's first frame: 43 ms, one window of
    /// the phase-gradient engine. A player starts a stream at every seek and change of rate,
    /// and this pre-roll, stretched, is most of its first block: with an export's 8192 frames a
    /// change to 0.25x took 77 ms to render before it could be heard, with 2048 about 20 ms.
    static let prerollSeconds = 2048.0 / 48000

    /// Throws `CompositionError(.noAudio)` when no clip has audio, `AudioError` when a segment's
    /// rate times `rate` is outside `algorithm`'s range, and the errors of the files.
    /// `files` are the clips' files, in clip order; `pitch` moves every frequency by that many
    /// semitones, the length kept (not with varispeed, whose pitch follows its rate).
    public init(_ map: CompositionMap, files: [MediaFile], from start: MediaTime, rate: Rate, algorithm: TimePitchAlgorithm,
                spectralEngine: SpectralEngine, pitch: Double = 0) throws {
        let first = map.source(atOutput: start).clip
        let parts = try zip(map.entries, files).enumerated().dropFirst(first).map { index, clip in
            let (entry, file) = clip
            let played = index == first ? try entry.map.trimmed(fromOutput: start) : entry.map
            return AudioPart(path: file.path, stream: file.audioStreams.first?.index, map: try played.scaled(by: rate),
                             origin: file.clipOrigin)
        }
        // One piece at a time: playing needs real time only, and pieces rendered ahead in bursts
        // on every core starved the sound device and the screen.
        joined = try JoinedAudio(parts, algorithm: algorithm, spectralEngine: spectralEngine, sampleRate: { $0 }, pitch: pitch,
                                 parallelism: 1, prerollSeconds: Self.prerollSeconds)
        sampleRate = joined.format.sampleRate
        channelCount = joined.format.channelCount
        let firstFrame = try parts[0].map.output.start.ticks(in: Rational(1, Int64(sampleRate)), rounding: .nearest)
        startTime = try MediaTime(value: firstFrame, timescale: Int64(sampleRate)).multiplied(by: rate.value)
        self.rate = rate
        self.pitch = pitch
    }

    /// Frames the stream has in all.
    public var frameCount: Int { joined.frameCount }

    /// What decoding met damaged so far (a packet it could not decode is played as silence),
    /// with the file it is in.
    public var damage: [(source: String, damage: Damage)] { joined.damage }

    /// The next at most `maxFrames` frames, in order; nil at the end.
    public func nextBlock(maxFrames: Int) throws -> AudioBuffer? {
        try joined.nextBlock(maxFrames: maxFrames)
    }
}
