/// Where `AudioRenderer` reads the source track from: random access by frame, with frames
/// outside the track reading as silence.
///
/// The renderer reads in increasing order except for short look-backs: a read never starts
/// more than `AudioRenderer.maximumLookBehind(sampleRate:)` frames before the end of the
/// furthest read so far. A decoder-backed source therefore needs to keep only that much history
/// (`StreamingAudioSource` does exactly that).
public protocol AudioSampleSource: AnyObject {
    /// Number of channels.
    var channelCount: Int { get }
    /// Frames `start ..< start + count`; frames before 0 or past the end of the track are
    /// silence. Always returns exactly `count` frames.
    func read(from start: Int, count: Int) throws -> AudioBuffer
}

/// A whole track in memory, or a window of one (frames outside the window read as silence).
public final class InMemoryAudioSource: AudioSampleSource {
    public let buffer: AudioBuffer
    /// The track frame that `buffer` starts at.
    public let origin: Int
    public init(_ buffer: AudioBuffer, origin: Int = 0) {
        self.buffer = buffer
        self.origin = origin
    }
    public var channelCount: Int { buffer.channelCount }
    public func read(from start: Int, count: Int) throws -> AudioBuffer {
        buffer.paddedSlice(from: start - origin, count: count)
    }
}

/// A track that arrives in order from a pull function (a decoder), keeping only a bounded
/// window of history for the renderer's look-backs.
public final class StreamingAudioSource: AudioSampleSource {
    public let channelCount: Int
    private let pull: () throws -> AudioBuffer?
    private var window: PlanarFIFO
    /// Absolute frame index of the first frame in `window`.
    private var windowStart = 0
    private var ended = false
    private let history: Int

    /// - Parameters:
    ///   - pull: returns the next decoded frames of the track in order (any block size), or
    ///     nil at the end of the track.
    ///   - history: frames kept behind the furthest read; at least
    ///     `AudioRenderer.maximumLookBehind(sampleRate:)`.
    public init(channelCount: Int, history: Int, pull: @escaping () throws -> AudioBuffer?) {
        self.channelCount = channelCount
        self.pull = pull
        self.history = history
        window = PlanarFIFO(channelCount: channelCount)
    }

    public func read(from start: Int, count: Int) throws -> AudioBuffer {
        let end = start + count
        while !ended && windowStart + window.count < end {
            if let block = try pull() {
                precondition(block.channelCount == channelCount, "decoded audio changed its channel count")
                window.append(block)
            } else {
                ended = true
            }
        }
        precondition(start >= windowStart || start < 0 || windowStart == 0 || start + count <= 0,
                     "read at \(start) is further back than the kept history (from \(windowStart))")
        // Frames before the window (only negative positions can be) and past the end of the
        // track are silence.
        let lo = max(start, windowStart), hi = min(end, windowStart + window.count)
        let out = lo < hi
            ? AudioBuffer(planar: window.storage.map { samples in
                var channel = [Float](repeating: 0, count: lo - start)
                channel.reserveCapacity(count)
                channel += samples[(window.head + lo - windowStart)..<(window.head + hi - windowStart)]
                channel += repeatElement(0, count: end - hi)
                return channel
            })
            : AudioBuffer(channelCount: channelCount, frameCount: count)
        // Forget what no later read can need.
        let keepFrom = end - history
        if keepFrom > windowStart {
            let k = min(keepFrom - windowStart, window.count)
            window.drop(k)
            windowStart += k
        }
        return out
    }
}
