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
/// window of history for the renderer's look-backs. Decoded blocks are kept as they come (no
/// copy into one growing buffer) and dropped whole once no later read can reach them.
public final class StreamingAudioSource: AudioSampleSource {
    public let channelCount: Int
    private let pull: () throws -> AudioBuffer?
    /// The blocks kept, in order, and the absolute frame each starts at.
    private var blocks: [AudioBuffer] = []
    private var blockStarts: [Int] = []
    /// Absolute frame index just past the last block pulled.
    private var pulledEnd = 0
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

    /// Absolute frame index of the first frame kept.
    private var keptStart: Int { blockStarts.first ?? pulledEnd }

    public func read(from start: Int, count: Int) throws -> AudioBuffer {
        let end = start + count
        while !ended && pulledEnd < end {
            if let block = try pull() {
                precondition(block.channelCount == channelCount, "decoded audio changed its channel count")
                guard block.frameCount > 0 else { continue }
                blocks.append(block)
                blockStarts.append(pulledEnd)
                pulledEnd += block.frameCount
            } else {
                ended = true
            }
        }
        precondition(start >= keptStart || start < 0 || keptStart == 0 || start + count <= 0,
                     "read at \(start) is further back than the kept history (from \(keptStart))")
        let out = copy(from: start, count: count)
        forget(before: end - history)
        return out
    }

    /// Frames `start ..< start + count` from the kept blocks; silence outside them (only
    /// negative positions and frames past the end of the track can be).
    private func copy(from start: Int, count: Int) -> AudioBuffer {
        let lo = max(start, keptStart), hi = min(start + count, pulledEnd)
        guard lo < hi else { return AudioBuffer(channelCount: channelCount, frameCount: count) }
        let first = blockStarts.partitioningIndex { $0 > lo } - 1
        let channels = (0..<channelCount).map { c in
            [Float](unsafeUninitializedCapacity: count) { destination, initialized in
                let silenceBefore = lo - start
                destination.baseAddress!.initialize(repeating: 0, count: silenceBefore)
                var position = lo
                var index = first
                while position < hi {
                    let blockStart = blockStarts[index]
                    let n = min(hi, blockStart + blocks[index].frameCount) - position
                    blocks[index].channels[c].withUnsafeBufferPointer { samples in
                        (destination.baseAddress! + (position - start))
                            .initialize(from: samples.baseAddress! + (position - blockStart), count: n)
                    }
                    position += n
                    index += 1
                }
                (destination.baseAddress! + (hi - start)).initialize(repeating: 0, count: start + count - hi)
                initialized = count
            }
        }
        return AudioBuffer(planar: channels)
    }

    /// Drops the blocks that lie wholly before `frame`.
    private func forget(before frame: Int) {
        var k = 0
        while k < blocks.count && blockStarts[k] + blocks[k].frameCount <= frame { k += 1 }
        guard k > 0 else { return }
        blocks.removeFirst(k)
        blockStarts.removeFirst(k)
    }
}

private extension Array where Element == Int {
    /// The first index whose element satisfies `predicate`, for an array ordered so that the
    /// predicate is false and then true (binary search).
    func partitioningIndex(where predicate: (Int) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
