import CFFmpeg
import SlomoConcurrency
import SlomoCore

/// What a video encoder should make.
public struct VideoEncoderSettings: Sendable {
    /// FFmpeg encoder name: `libx264`, `libx265`, `prores_ks`, `ffv1`, …
    public var codec: String
    public var width: Int
    public var height: Int
    public var pixelFormat: PixelFormat
    /// The time base of the frames sent in (e.g. 1/30 for 30 fps CFR).
    public var timeBase: Rational
    /// The frame rate, for rate control and the container's `r_frame_rate`.
    public var frameRate: Rational?
    public var sampleAspectRatio: Rational?
    /// Target bit rate in bits per second (nil: the codec's quality mode).
    public var bitRate: Int?
    /// Keyframe interval in frames.
    public var gopSize: Int?
    /// Encoder-private options (`preset`, `crf`, `x265-params`, `profile`, …).
    public var options: [String: String]
    /// Threads; 0 lets FFmpeg choose.
    public var threads: Int

    public init(codec: String, width: Int, height: Int, pixelFormat: PixelFormat, timeBase: Rational,
                frameRate: Rational? = nil, sampleAspectRatio: Rational? = nil, bitRate: Int? = nil,
                gopSize: Int? = nil, options: [String: String] = [:], threads: Int = 0) {
        self.codec = codec
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.timeBase = timeBase
        self.frameRate = frameRate
        self.sampleAspectRatio = sampleAspectRatio
        self.bitRate = bitRate
        self.gopSize = gopSize
        self.options = options
        self.threads = threads
    }
}

/// What an audio encoder should make.
public struct AudioEncoderSettings: Sendable {
    /// FFmpeg encoder name: `aac`, `alac`, `pcm_s16le`, `flac`, …
    public var codec: String
    public var format: AudioFormat
    public var bitRate: Int?
    public var options: [String: String]
    /// The bits of each sample the codec keeps when its sample format holds more (24 for
    /// 24-bit FLAC and ALAC, which take 32-bit integers); nil for all of them.
    public var bitsPerRawSample: Int?

    public init(codec: String, format: AudioFormat, bitRate: Int? = nil, options: [String: String] = [:],
                bitsPerRawSample: Int? = nil) {
        self.codec = codec
        self.format = format
        self.bitRate = bitRate
        self.options = options
        self.bitsPerRawSample = bitsPerRawSample
    }
}

/// Turns frames into packets. Send a frame, then receive until nil; at the end send
/// end-of-stream and receive until nil (`encode(_:)` does both). Packets come out in the
/// encoder's time base. Not thread-safe.
public final class Encoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    /// The time base of frames sent in and packets that come out.
    public var timeBase: Rational { context.pointee.time_base.rational }

    /// A video encoder. `globalHeader` must be true for containers that want codec headers
    /// out of band (MP4, MOV, Matroska): ask the `Muxer`.
    public convenience init(video settings: VideoEncoderSettings, globalHeader: Bool) throws {
        try self.init(codecName: settings.codec, options: settings.options, globalHeader: globalHeader) { context in
            context.pointee.width = Int32(settings.width)
            context.pointee.height = Int32(settings.height)
            context.pointee.pix_fmt = settings.pixelFormat.raw
            context.pointee.time_base = settings.timeBase.avRational
            if let rate = settings.frameRate { context.pointee.framerate = rate.avRational }
            if let sar = settings.sampleAspectRatio { context.pointee.sample_aspect_ratio = sar.avRational }
            if let bitRate = settings.bitRate { context.pointee.bit_rate = Int64(bitRate) }
            if let gop = settings.gopSize { context.pointee.gop_size = Int32(gop) }
            context.pointee.thread_count = Int32(settings.threads)
        }
    }

    /// An audio encoder.
    public convenience init(audio settings: AudioEncoderSettings, globalHeader: Bool) throws {
        try self.init(codecName: settings.codec, options: settings.options, globalHeader: globalHeader) { context in
            context.pointee.sample_rate = Int32(settings.format.sampleRate)
            context.pointee.sample_fmt = settings.format.sampleFormat.raw
            context.pointee.time_base = AVRational(num: 1, den: Int32(settings.format.sampleRate))
            settings.format.layout.withAVLayout { _ = av_channel_layout_copy(&context.pointee.ch_layout, $0) }
            if let bitRate = settings.bitRate { context.pointee.bit_rate = Int64(bitRate) }
            if let bits = settings.bitsPerRawSample { context.pointee.bits_per_raw_sample = Int32(bits) }
        }
    }

    /// Throws `FFmpegError` when FFmpeg has no such encoder or cannot open it, and `MediaError`
    /// (`.unknownOption`) for an option the encoder does not have.
    private init(codecName: String, options: [String: String], globalHeader: Bool,
                 configure: (UnsafeMutablePointer<AVCodecContext>) -> Void) throws {
        guard let codec = avcodec_find_encoder_by_name(codecName) else {
            throw FFmpegError(code: FFmpegError.encoderNotFound.code, operation: "find encoder \(codecName)")
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw FFmpegError(code: FFmpegError.outOfMemory.code, operation: "allocate encoder \(codecName)")
        }
        self.context = context
        configure(context)
        if globalHeader { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        var dictionary = OptionDictionary(options)
        defer { dictionary.free() }
        try check(avcodec_open2(context, codec, &dictionary.pointer), "open encoder \(codecName)")
        if let unknown = dictionary.firstKey {
            throw MediaError(.unknownOption, detail: "encoder \(codecName) has no option '\(unknown)'")
        }
    }

    deinit {
        var doomed: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&doomed)
    }

    /// Audio: samples per frame the encoder wants (0 means any size).
    public var frameSize: Int { Int(context.pointee.frame_size) }

    /// The audio format the encoder was opened with.
    public var audioFormat: AudioFormat {
        AudioFormat(sampleRate: Int(context.pointee.sample_rate), layout: ChannelLayout(context.pointee.ch_layout),
                    sampleFormat: SampleFormat(context.pointee.sample_fmt))
    }

    /// Sends one frame, whose `pts` is in the encoder's time base.
    public func send(_ frame: Frame) throws(FFmpegError) {
        try check(avcodec_send_frame(context, frame.pointer), "encode")
    }

    /// Tells the encoder no more frames come, so that it releases the packets it holds back.
    public func sendEndOfStream() throws(FFmpegError) {
        let status = avcodec_send_frame(context, nil)
        if status == FFmpegError.endOfFile.code { return }
        try check(status, "flush encoder")
    }

    /// The next packet, or nil when the encoder needs more input or has finished; the caller's
    /// alone (`disconnected`), so it may go to another thread.
    public func receive() throws(FFmpegError) -> sending Packet? {
        let packet = Packet(timeBase: timeBase)
        let status = avcodec_receive_packet(context, packet.pointer)
        if status == FFmpegError.tryAgain.code || status == FFmpegError.endOfFile.code { return nil }
        try check(status, "encode")
        return disconnected(consume packet)
    }

    /// Sends a frame (or end-of-stream for nil) and returns every packet that is ready.
    public func encode(_ frame: Frame?) throws(FFmpegError) -> [Packet] {
        if let frame { try send(frame) } else { try sendEndOfStream() }
        return try drain(receive)
    }
}

/// An `AVDictionary` of string options, built from a Swift dictionary and freed once.
struct OptionDictionary {
    var pointer: OpaquePointer?

    init(_ options: [String: String]) {
        for (key, value) in options.sorted(by: { $0.key < $1.key }) { av_dict_set(&pointer, key, value, 0) }
    }

    /// The first key still in the dictionary: FFmpeg removes the options it used.
    var firstKey: String? { av_dict_get(pointer, "", nil, AV_DICT_IGNORE_SUFFIX).map { String(cString: $0.pointee.key) } }

    mutating func free() { av_dict_free(&pointer) }
}
