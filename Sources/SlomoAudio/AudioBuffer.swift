/// In-memory PCM: planar 32-bit float samples, any number of channels, all channels the same
/// length. The unit every processor and the renderer take and return.
///
/// A value type; copying it copies the sample arrays lazily (copy-on-write of `[Float]`).
public struct AudioBuffer: Sendable, Equatable {
    /// One array of samples per channel, all `frameCount` long.
    public private(set) var channels: [[Float]]

    /// Number of channels (≥ 1).
    public var channelCount: Int { channels.count }
    /// Number of frames (samples per channel).
    public var frameCount: Int { channels.first?.count ?? 0 }

    /// A buffer of `frameCount` frames of silence.
    public init(channelCount: Int, frameCount: Int = 0) {
        precondition(channelCount >= 1, "an audio buffer needs at least one channel")
        channels = Array(repeating: [Float](repeating: 0, count: frameCount), count: channelCount)
    }

    /// Wraps planar channel arrays, which must all have the same length.
    public init(planar channels: [[Float]]) {
        precondition(!channels.isEmpty, "an audio buffer needs at least one channel")
        precondition(channels.allSatisfy { $0.count == channels[0].count }, "channels differ in length")
        self.channels = channels
    }

    /// De-interleaves `samples` (frame after frame, `channelCount` samples each).
    public init(interleaved samples: [Float], channelCount: Int) {
        precondition(channelCount >= 1 && samples.count % channelCount == 0, "bad interleaved buffer")
        let frames = samples.count / channelCount
        var planar = Array(repeating: [Float](repeating: 0, count: frames), count: channelCount)
        samples.withUnsafeBufferPointer { src in
            for c in 0..<channelCount {
                planar[c].withUnsafeMutableBufferPointer { dst in
                    for f in 0..<frames { dst[f] = src[f * channelCount + c] }
                }
            }
        }
        channels = planar
    }

    /// The samples interleaved (frame after frame).
    public func interleaved() -> [Float] {
        let n = frameCount, cc = channelCount
        var out = [Float](repeating: 0, count: n * cc)
        out.withUnsafeMutableBufferPointer { dst in
            for c in 0..<cc {
                channels[c].withUnsafeBufferPointer { src in
                    for f in 0..<n { dst[f * cc + c] = src[f] }
                }
            }
        }
        return out
    }

    /// Frames `range` as a new buffer. The range must lie inside the buffer.
    public func slice(_ range: Range<Int>) -> AudioBuffer {
        precondition(range.lowerBound >= 0 && range.upperBound <= frameCount, "slice out of bounds")
        return AudioBuffer(planar: channels.map { Array($0[range]) })
    }

    /// Frames `start ..< start + count`, where frames outside the buffer read as silence.
    public func paddedSlice(from start: Int, count: Int) -> AudioBuffer {
        var out = AudioBuffer(channelCount: channelCount, frameCount: count)
        let lo = max(start, 0), hi = min(start + count, frameCount)
        if lo < hi {
            for c in 0..<channelCount {
                out.channels[c].replaceSubrange((lo - start)..<(hi - start), with: channels[c][lo..<hi])
            }
        }
        return out
    }

    /// Appends the frames of `other`, which must have the same channel count.
    public mutating func append(_ other: AudioBuffer) {
        precondition(other.channelCount == channelCount, "channel counts differ")
        for c in 0..<channelCount { channels[c].append(contentsOf: other.channels[c]) }
    }

    /// Appends `count` frames of silence.
    public mutating func appendSilence(_ count: Int) {
        guard count > 0 else { return }
        for c in 0..<channelCount { channels[c].append(contentsOf: repeatElement(0, count: count)) }
    }

    /// Keeps the first `count` frames, padding with silence when the buffer is shorter.
    public mutating func resize(to count: Int) {
        if count < frameCount {
            for c in 0..<channelCount { channels[c].removeLast(frameCount - count) }
        } else {
            appendSilence(count - frameCount)
        }
    }

    /// Replaces one channel's samples with an array of the same length.
    mutating func replaceChannel(_ c: Int, with samples: [Float]) {
        precondition(samples.count == frameCount)
        channels[c] = samples
    }

    /// Removes the first `count` frames (at most all of them).
    public mutating func removeFirst(_ count: Int) {
        let k = min(count, frameCount)
        guard k > 0 else { return }
        for c in 0..<channelCount { channels[c].removeFirst(k) }
    }
}

/// A growable planar FIFO used inside processors: append at the end, consume from the front,
/// without shifting memory on every read.
struct PlanarFIFO {
    private(set) var storage: [[Float]]
    private(set) var head = 0

    init(channelCount: Int) { storage = Array(repeating: [], count: channelCount) }

    var channelCount: Int { storage.count }
    var count: Int { (storage.first?.count ?? 0) - head }

    mutating func append(_ buffer: AudioBuffer) {
        for c in 0..<channelCount { storage[c].append(contentsOf: buffer.channels[c]) }
    }

    mutating func appendSilence(_ n: Int) {
        guard n > 0 else { return }
        for c in 0..<channelCount { storage[c].append(contentsOf: repeatElement(0, count: n)) }
    }

    /// Appends `frames` frames from planar channel pointers.
    mutating func append(_ pointers: [UnsafePointer<Float>], frames: Int) {
        guard frames > 0 else { return }
        for c in 0..<channelCount {
            storage[c].append(contentsOf: UnsafeBufferPointer(start: pointers[c], count: frames))
        }
    }

    /// Appends interleaved samples.
    mutating func append(interleaved p: UnsafePointer<Float>, frames: Int) {
        guard frames > 0 else { return }
        let cc = channelCount
        for c in 0..<cc {
            storage[c].append(contentsOf: (0..<frames).lazy.map { p[$0 * cc + c] })
        }
    }

    /// Removes and returns the first `n` frames (at most `count`).
    mutating func pop(_ n: Int) -> AudioBuffer {
        let out = peek(n)
        drop(out.frameCount)
        return out
    }

    /// The first `n` frames (at most `count`), left in place.
    func peek(_ n: Int) -> AudioBuffer {
        let k = max(0, min(n, count))
        return AudioBuffer(planar: storage.map { Array($0[head..<(head + k)]) })
    }

    /// Moves the first `n` frames of `other` (at most its `count`) to the end of this FIFO.
    mutating func move(_ n: Int, from other: inout PlanarFIFO) {
        let k = max(0, min(n, other.count))
        guard k > 0 else { return }
        for c in 0..<channelCount { storage[c].append(contentsOf: other.storage[c][other.head..<(other.head + k)]) }
        other.drop(k)
    }

    /// Discards the first `n` frames (at most `count`). The frames left move to the front once
    /// more have been dropped than are left (each frame moves at most once on average), so that
    /// a FIFO passing a long stream through holds about what is in it, not all it has passed: the
    /// memory of one it had grown was a short stretch's largest cost in page faults.
    mutating func drop(_ n: Int) {
        head += max(0, min(n, count))
        if head > Self.compactionThreshold && head * 2 > (storage.first?.count ?? 0) {
            for c in 0..<channelCount { storage[c].removeFirst(head) }
            head = 0
        }
    }

    /// Makes room for `frames` more frames than are held now.
    /// Dropped frames kept before the rest move to the front (fewer moves, of more frames).
    static let compactionThreshold = 4096

    mutating func reserveCapacity(_ frames: Int) {
        for c in 0..<channelCount { storage[c].reserveCapacity(storage[c].count + frames) }
    }

    mutating func removeAll() {
        for c in 0..<channelCount { storage[c].removeAll(keepingCapacity: true) }
        head = 0
    }
}

extension AudioBuffer {
    /// Writes frames `start ..< start + count`, channels interleaved, into `destination`
    /// (which must hold `count × channelCount` samples): the layout libsamplerate takes.
    func interleave(from start: Int, count: Int, into destination: UnsafeMutablePointer<Float>) {
        let stride = channelCount
        for (channel, samples) in channels.enumerated() {
            samples.withUnsafeBufferPointer { source in
                for frame in 0..<count { destination[frame * stride + channel] = source[start + frame] }
            }
        }
    }
}

extension AudioBuffer {
    /// Each channel's sample peak: its largest magnitude (not the true peak between samples),
    /// found eight samples at a time.
    public var samplePeaks: [Float] {
        channels.map { samples in
            samples.withUnsafeBufferPointer { buffer in
                var high = SIMD8<Float>(repeating: 0), low = SIMD8<Float>(repeating: 0)
                let whole = buffer.count / 8 * 8
                if let base = buffer.baseAddress {
                    let raw = UnsafeRawPointer(base)
                    for offset in stride(from: 0, to: whole, by: 8) {
                        let eight = raw.loadUnaligned(fromByteOffset: offset * 4, as: SIMD8<Float>.self)
                        high = pointwiseMax(high, eight)
                        low = pointwiseMin(low, eight)
                    }
                }
                return buffer[whole...].reduce(max(high.max(), -low.min())) { max($0, abs($1)) }
            }
        }
    }
}
