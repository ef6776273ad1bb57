import SlomoCore
import SlomoMedia

/// One stream of a recording: how its samples become packets (a video encoder, a sound
/// encoder, or a copy) and the timestamps they get in the file. Writer thread only.
final class RecordingTrack {
    /// The time base of recorded video.
    static let videoTimeBase = Rational(1, 90000)

    let muxerStream: Int
    let isAudio: Bool
    /// The video encoder; nil for copied streams and sound.
    let encoder: Encoder?
    /// The encoder of raw sound.
    let sound: SoundEncoder?
    /// The size and pixel format pictures are converted to before encoding.
    let encodedWidth: Int
    let encodedHeight: Int
    let encodedFormat: PixelFormat
    let timeBase: Rational
    private var scaler: Scaler?
    private var lastTicks: Int64?
    private var nextSoundTicks: Int64?
    private var lastKeyframeTime: Int64?

    private init(muxerStream: Int, isAudio: Bool, encoder: Encoder? = nil, sound: SoundEncoder? = nil,
                 width: Int = 0, height: Int = 0, format: PixelFormat = .yuv420p, timeBase: Rational) {
        self.muxerStream = muxerStream
        self.isAudio = isAudio
        self.encoder = encoder
        self.sound = sound
        encodedWidth = width
        encodedHeight = height
        encodedFormat = format
        self.timeBase = timeBase
    }

    /// A track that encodes raw pictures with `settings`.
    convenience init(encodingVideo settings: VideoEncoderSettings, into muxer: Muxer) throws {
        let encoder = try Encoder(video: settings, globalHeader: muxer.needsGlobalHeader)
        self.init(muxerStream: try muxer.addStream(for: encoder), isAudio: false, encoder: encoder,
                  width: settings.width, height: settings.height, timeBase: Self.videoTimeBase)
    }

    /// A track that encodes raw sound in `format` as `storage` says.
    convenience init(encodingSound storage: SoundStorage, format: AudioFormat, into muxer: Muxer) throws {
        let sound = try SoundEncoder(storage: storage, source: format, globalHeader: muxer.needsGlobalHeader)
        self.init(muxerStream: try muxer.addStream(for: sound.encoder), isAudio: true, sound: sound,
                  timeBase: Rational(1, Int64(format.sampleRate)))
    }

    /// A track that copies `source`'s compressed packets; video is re-stamped in `videoTimeBase`.
    convenience init(copying source: CaptureSource, into muxer: Muxer) throws(FFmpegError) {
        let index = try muxer.addStream(copying: source.streamIndex, of: source.demuxer)
        if !source.isAudio { muxer.setTimeBase(Self.videoTimeBase, stream: index) }
        self.init(muxerStream: index, isAudio: source.isAudio,
                  timeBase: source.isAudio ? source.stream.timeBase : Self.videoTimeBase)
    }

    // MARK: Timestamps

    /// Stamps a block of raw sound recorded at `offset` (nanoseconds): right after the block
    /// before it, so that samples stay contiguous, unless the source skipped (more than 50 ms off).
    func stampSound(_ frame: Frame, at offset: Int64) {
        let computed = Self.ticks(offset, timeBase)
        var pts = nextSoundTicks ?? computed
        if abs(computed - pts) > timeBase.denominator / 20 { pts = computed }
        frame.timeBase = timeBase
        frame.pts = pts
        nextSoundTicks = pts + Int64(frame.sampleCount)
    }

    /// Stamps a picture recorded at `offset` and asks for a keyframe on the first one and then
    /// once every `keyframeInterval` nanoseconds.
    func stampPicture(_ picture: Frame, at offset: Int64, keyframeInterval: Int64) {
        picture.timeBase = timeBase
        picture.pts = increasingTicks(at: offset)
        let isKeyframeDue = lastKeyframeTime.map { offset - $0 >= keyframeInterval } ?? true
        if isKeyframeDue { lastKeyframeTime = offset }
        picture.requestKeyframe(isKeyframeDue)
    }

    /// Re-stamps a copied packet whose decoding time is `offset`: decoding times rise strictly
    /// (packets come in decoding order), and each presentation time stays as far after its
    /// decoding time as in the source (a stream with B-frames reorders).
    func stampCopiedPacket(_ packet: Packet, at offset: Int64) {
        let delay = (packet.pts ?? packet.dts ?? 0) - (packet.dts ?? packet.pts ?? 0)
        let delayTicks = (try? MediaTime(ticks: delay, timeBase: packet.timeBase).ticks(in: timeBase)) ?? 0
        let ticks = increasingTicks(at: offset)
        packet.dts = ticks
        packet.pts = ticks + delayTicks
        packet.duration = 0
        packet.timeBase = timeBase
    }

    /// The nanoseconds since the start of the recording at which a stamped sound block ends.
    func soundEnd(of frame: Frame, at offset: Int64) -> Int64 {
        offset + Int64(frame.sampleCount) * 1_000_000_000 / timeBase.denominator
    }

    /// `frame` in the encoded size and pixel format, converted when it differs.
    func encodable(_ frame: Frame) throws(FFmpegError) -> Frame {
        guard frame.width != encodedWidth || frame.height != encodedHeight || frame.pixelFormat != encodedFormat else {
            return frame
        }
        if scaler == nil {
            scaler = try Scaler(width: frame.width, height: frame.height, format: frame.pixelFormat,
                                toWidth: encodedWidth, height: encodedHeight, format: encodedFormat)
        }
        return try scaler!.scale(frame)
    }

    /// The ticks of `offset`, made later than the previous sample's when they are not.
    private func increasingTicks(at offset: Int64) -> Int64 {
        var ticks = Self.ticks(offset, timeBase)
        if let last = lastTicks, ticks <= last { ticks = last + 1 }
        lastTicks = ticks
        return ticks
    }

    /// Nanoseconds as ticks of `timeBase`, rounded to nearest.
    private static func ticks(_ nanoseconds: Int64, _ timeBase: Rational) -> Int64 {
        (try? MediaTime(value: nanoseconds, timescale: 1_000_000_000).ticks(in: timeBase)) ?? 0
    }
}
