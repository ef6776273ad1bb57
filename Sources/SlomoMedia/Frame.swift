import CFFmpeg
import SlomoConcurrency
import SlomoCore

/// A decoded video picture or block of audio samples that owns its `AVFrame` and frees it
/// exactly once. `pts` is in `timeBase` ticks; `nil` stands for `AV_NOPTS_VALUE`.
public final class Frame {
    let pointer: UnsafeMutablePointer<AVFrame>
    private let allocationScope: LiveObjects.Counters?

    /// The time base `pts` is counted in.
    public var timeBase: Rational

    /// An empty frame, to be filled by a decoder, a filter graph or a converter.
    public init(timeBase: Rational = Rational(1, 1)) {
        guard let frame = av_frame_alloc() else { fatalError("av_frame_alloc: out of memory") }
        pointer = frame
        self.timeBase = timeBase
        allocationScope = LiveObjects.allocated(.frame)
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
        LiveObjects.freed(.frame, scope: allocationScope)
    }

    /// A new reference to the same picture or samples (no copy of the data: the two share
    /// reference-counted buffers, which FFmpeg counts atomically). The copy is the caller's
    /// alone (`disconnected`), so it may go to another thread while this one stays.
    public func clone() throws(FFmpegError) -> sending Frame {
        let copy = Frame(timeBase: timeBase)
        try check(av_frame_ref(copy.pointer, pointer), "reference a frame")
        return disconnected(consume copy)
    }

    /// Presentation timestamp in `timeBase` ticks.
    public var pts: Int64? {
        get { Packet.optional(pointer.pointee.pts) }
        set { pointer.pointee.pts = newValue ?? slomo_nopts_value() }
    }

    /// The decoder's best guess of the presentation timestamp, when `pts` is missing.
    public var bestEffortPTS: Int64? { Packet.optional(pointer.pointee.best_effort_timestamp) }

    /// The presentation time as an exact `MediaTime`.
    public var presentationTime: MediaTime? {
        (pts ?? bestEffortPTS).map { MediaTime(ticks: $0, timeBase: timeBase) }
    }

    // MARK: Video

    /// Picture width in pixels (0 for audio).
    public var width: Int { Int(pointer.pointee.width) }
    /// Picture height in pixels (0 for audio).
    public var height: Int { Int(pointer.pointee.height) }
    /// The pixel format, for a video frame.
    public var pixelFormat: PixelFormat { PixelFormat(AVPixelFormat(pointer.pointee.format)) }
    /// True for a keyframe picture.
    public var isKeyframe: Bool { pointer.pointee.key_frame != 0 }

    /// Bytes per row of a plane, for video.
    public func lineSize(plane: Int) -> Int {
        Int(withUnsafeBytes(of: pointer.pointee.linesize) { $0.load(fromByteOffset: plane * 4, as: Int32.self) })
    }

    /// The start of a plane's data, for video or planar audio.
    public func planeData(_ plane: Int) -> UnsafeMutablePointer<UInt8>? {
        pointer.pointee.extended_data[plane]
    }

    // MARK: Audio

    /// Samples per channel, for audio.
    public var sampleCount: Int { Int(pointer.pointee.nb_samples) }
    /// Sample rate in Hz, for audio.
    public var sampleRate: Int { Int(pointer.pointee.sample_rate) }
    /// Channel count, for audio.
    public var channelCount: Int { Int(pointer.pointee.ch_layout.nb_channels) }
    /// The sample format, for audio.
    public var sampleFormat: SampleFormat { SampleFormat(AVSampleFormat(pointer.pointee.format)) }
}

extension LiveObjects.Kind {
    /// `Frame`s, counted from allocation to `deinit`.
    public static let frame = LiveObjects.Kind(slot: 1)
}

extension LiveObjects.Counters {
    /// Frames allocated and not yet freed.
    public var frames: Int { live(.frame) }
    /// Frames allocated in all (freed or not): proof that the work was counted.
    public var allocatedFrames: Int { allocated(.frame) }
}
