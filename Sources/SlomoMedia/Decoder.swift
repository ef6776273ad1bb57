import CFFmpeg
import SlomoConcurrency
import SlomoCore

/// Turns a stream's packets into frames. Frames come out with timestamps in the stream's
/// time base. Send a packet, then receive until nil; at the end send end-of-stream and
/// receive until nil again (`decode(_:)` does both). Not thread-safe.
public final class Decoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    /// The time base of the packets sent in and the frames that come out.
    public let timeBase: Rational
    /// The file the stream came from, for error messages.
    public let path: String?
    /// The packets and pictures it found damaged (see `damageReport`).
    private var damage = DecodeDamage()
    /// Which of the error messages it logs are damage.
    private var loggedErrors: DecoderErrorAttribution

    /// A decoder for stream `index` of an opened file. `threads` 0 lets FFmpeg choose.
    public convenience init(demuxer: Demuxer, stream index: Int, threads: Int = 0) throws(FFmpegError) {
        let stream = demuxer.streamPointer(index)
        try self.init(parameters: stream.pointee.codecpar, timeBase: stream.pointee.time_base.rational,
                      threads: threads, path: demuxer.path)
    }

    init(parameters: UnsafePointer<AVCodecParameters>, timeBase: Rational, threads: Int, path: String?) throws(FFmpegError) {
        self.timeBase = timeBase
        self.path = path
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw FFmpegError(code: FFmpegError.decoderNotFound.code, operation: "find decoder", path: path)
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw FFmpegError(code: FFmpegError.outOfMemory.code, operation: "allocate decoder", path: path)
        }
        self.context = context
        loggedErrors = DecoderErrorAttribution(context: context, parameters: parameters)
        try check(avcodec_parameters_to_context(context, parameters), "configure decoder", path: path)
        context.pointee.pkt_timebase = timeBase.avRational
        context.pointee.thread_count = Int32(threads)
        try check(avcodec_open2(context, codec, nil), "open decoder", path: path)
    }

    deinit {
        loggedErrors.forget()
        var doomed: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&doomed)
    }

    /// Sends one packet. The caller must receive all pending frames before the next send.
    public func send(_ packet: Packet) throws(FFmpegError) {
        loggedErrors.sending(packet)
        let status = avcodec_send_packet(context, packet.pointer)
        countLoggedErrors(at: packet.presentationTime ?? packet.decodingTime)
        try check(status, "decode", path: path)
    }

    /// Tells the decoder no more packets come, so that it releases the frames it holds back.
    public func sendEndOfStream() throws(FFmpegError) {
        let status = avcodec_send_packet(context, nil)
        if status == FFmpegError.endOfFile.code { return }
        try check(status, "flush decoder", path: path)
    }

    /// The next decoded frame, or nil when the decoder needs more input or has finished. The
    /// frame is the caller's alone (`disconnected`: it refers to the decoder's buffers only
    /// through their reference counts), so it may go to another thread.
    public func receive() throws(FFmpegError) -> sending Frame? {
        let frame = Frame(timeBase: timeBase)
        let status = avcodec_receive_frame(context, frame.pointer)
        if status == FFmpegError.tryAgain.code || status == FFmpegError.endOfFile.code { return nil }
        try check(status, "decode", path: path)
        damage.inspect(frame)
        countLoggedErrors(at: frame.presentationTime)
        return disconnected(consume frame)
    }

    /// Counts as damaged, at `time`, the packet or picture being decoded when the decoder has
    /// logged errors that mean damage since it was last asked: one decoding on one thread logs
    /// them as it meets the packet's data; with frame threads they are counted a few packets late.
    private func countLoggedErrors(at time: MediaTime?) {
        if loggedErrors.newDamage(at: time) { damage.record(at: time) }
    }

    /// Sends one packet, like `send`, except that a packet whose data the decoder rejects is
    /// counted as damaged (see `damageReport`) instead of failing: its picture or samples are
    /// simply missing, and decoding goes on.
    public func sendSkippingDamaged(_ packet: Packet) throws(FFmpegError) {
        do {
            try send(packet)
        } catch {
            guard error == .invalidData else { throw error }
            countLost(packet)
        }
    }

    /// Counts as damaged a packet whose picture or samples did not come out (nil: a picture
    /// the decoder failed to hand over, whose time is unknown).
    func countLost(_ packet: Packet?) {
        damage.record(at: packet.flatMap { $0.presentationTime ?? $0.decodingTime })
    }

    /// What this decoder found damaged in `stream` (the stream it decodes) so far: packets it
    /// rejected or logged errors about, pictures it had to conceal errors in. Nil when
    /// everything decoded cleanly.
    public func damageReport(for stream: StreamInfo) -> Damage? { damage.damage(of: stream) }

    /// What several decoders that each decoded part of `stream` found damaged together; nil
    /// when every packet decoded cleanly.
    public static func damageReport(of decoders: [Decoder], for stream: StreamInfo) -> Damage? {
        var tally = DecodeDamage()
        for decoder in decoders { tally.add(decoder.damage) }
        return tally.damage(of: stream)
    }

    /// Sends a packet (or end-of-stream for nil) and returns every frame that is ready.
    public func decode(_ packet: Packet?) throws(FFmpegError) -> [Frame] {
        if let packet { try send(packet) } else { try sendEndOfStream() }
        return try drain(receive)
    }

    /// Drops everything buffered, e.g. after a seek.
    public func reset() {
        avcodec_flush_buffers(context)
        loggedErrors.restart()
    }

    /// The audio format the decoder produces (valid once it has been opened).
    public var audioFormat: AudioFormat {
        AudioFormat(sampleRate: Int(context.pointee.sample_rate),
                    layout: ChannelLayout(context.pointee.ch_layout),
                    sampleFormat: SampleFormat(context.pointee.sample_fmt))
    }
}
