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
    /// A source that another thread may read frames `range` from (and silence elsewhere) while
    /// this one goes on being read. It shares no mutable state with this source.
    func snapshot(of range: Range<Int>) throws -> any AudioSampleSource
}

extension AudioSampleSource {
    /// A copy of the frames in `range`.
    public func snapshot(of range: Range<Int>) throws -> any AudioSampleSource {
        InMemoryAudioSource(try read(from: range.lowerBound, count: range.count), origin: range.lowerBound)
    }
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
    /// This source itself: it never changes, so any thread may read it.
    public func snapshot(of range: Range<Int>) throws -> any AudioSampleSource { self }
}

/// A track that arrives in order from a pull function (a decoder), keeping only a bounded
/// window of history for the renderer's look-backs. Decoded blocks are kept as they come (no
/// copy into one growing buffer) and dropped whole once no later read can reach them; a
/// snapshot shares the blocks it covers instead of copying them.
public final class StreamingAudioSource: AudioSampleSource {
    public let channelCount: Int
    private let pull: () throws -> AudioBuffer?
    private var decoded = DecodedBlocks()
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
    }

    public func read(from start: Int, count: Int) throws -> AudioBuffer {
        try reach(start ..< start + count)
        return decoded.copy(from: start, count: count, channelCount: channelCount)
    }

    public func snapshot(of range: Range<Int>) throws -> any AudioSampleSource {
        try reach(range, forgetting: false)
        let part = SharedBlocksSource(decoded.covering(range), channelCount: channelCount)
        decoded.forget(before: range.upperBound - history)
        return part
    }

    /// Pulls until `range` is decoded (or the track ends), checks that its start is still
    /// kept, and (unless told not to: a snapshot longer than the history takes its blocks
    /// first) forgets what no later read can need.
    private func reach(_ range: Range<Int>, forgetting: Bool = true) throws {
        while !ended && decoded.end < range.upperBound {
            if let block = try pull() {
                precondition(block.channelCount == channelCount, "decoded audio changed its channel count")
                decoded.append(block)
            } else {
                ended = true
            }
        }
        let kept = decoded.start
        precondition(range.lowerBound >= kept || range.lowerBound < 0 || kept == 0 || range.upperBound <= 0,
                     "read at \(range.lowerBound) is further back than the kept history (from \(kept))")
        if forgetting { decoded.forget(before: range.upperBound - history) }
    }
}

/// Blocks of a track decoded by `StreamingAudioSource`, shared (not copied) with a worker.
final class SharedBlocksSource: AudioSampleSource {
    let channelCount: Int
    private let decoded: DecodedBlocks

    init(_ decoded: DecodedBlocks, channelCount: Int) {
        self.decoded = decoded
        self.channelCount = channelCount
    }

    func read(from start: Int, count: Int) throws -> AudioBuffer {
        decoded.copy(from: start, count: count, channelCount: channelCount)
    }

    func snapshot(of range: Range<Int>) throws -> any AudioSampleSource { self }
}

/// Consecutive decoded blocks of a track, each kept as it came, with the frame each starts at.
struct DecodedBlocks {
    private var blocks: [AudioBuffer] = []
    private var starts: [Int] = []
    /// The frame just past the last block.
    private(set) var end = 0

    /// The first frame held (`end` when none is).
    var start: Int { starts.first ?? end }

    mutating func append(_ block: AudioBuffer) {
        guard block.frameCount > 0 else { return }
        blocks.append(block)
        starts.append(end)
        end += block.frameCount
    }

    /// Drops the blocks that lie wholly before `frame`.
    mutating func forget(before frame: Int) {
        var k = 0
        while k < blocks.count && starts[k] + blocks[k].frameCount <= frame { k += 1 }
        guard k > 0 else { return }
        blocks.removeFirst(k)
        starts.removeFirst(k)
    }

    /// The blocks that hold any frame of `range`.
    func covering(_ range: Range<Int>) -> DecodedBlocks {
        var part = DecodedBlocks()
        let first = max(0, index(of: range.lowerBound))
        for k in first..<blocks.count where starts[k] < range.upperBound {
            part.blocks.append(blocks[k])
            part.starts.append(starts[k])
            part.end = starts[k] + blocks[k].frameCount
        }
        if part.blocks.isEmpty { part.end = end }
        return part
    }

    /// Frames `from ..< from + count`, silence where no block holds them.
    func copy(from: Int, count: Int, channelCount: Int) -> AudioBuffer {
        let lo = max(from, start), hi = min(from + count, end)
        guard lo < hi else { return AudioBuffer(channelCount: channelCount, frameCount: count) }
        let first = index(of: lo)
        let channels = (0..<channelCount).map { c in
            [Float](unsafeUninitializedCapacity: count) { destination, initialized in
                let base = destination.baseAddress!
                base.initialize(repeating: 0, count: lo - from)
                var position = lo, k = first
                while position < hi {
                    let n = min(hi, starts[k] + blocks[k].frameCount) - position
                    blocks[k].channels[c].withUnsafeBufferPointer { samples in
                        (base + (position - from)).initialize(from: samples.baseAddress! + (position - starts[k]), count: n)
                    }
                    position += n
                    k += 1
                }
                (base + (hi - from)).initialize(repeating: 0, count: from + count - hi)
                initialized = count
            }
        }
        return AudioBuffer(planar: channels)
    }

    /// The index of the block holding `frame` (-1 before the first block).
    private func index(of frame: Int) -> Int {
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] > frame { high = middle } else { low = middle + 1 }
        }
        return low - 1
    }
}
