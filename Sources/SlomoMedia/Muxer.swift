import CFFmpeg
import Glibc
import SlomoCore

/// Writes packets into a container file, safely: everything goes into an unnamed file in the
/// target's folder (`PartialFile`), which gets the target's name only when `finish()`
/// succeeds and vanishes on failure, when the muxer is dropped unfinished, or when the process
/// is killed. An existing target is never replaced unless `overwrite` is set. Not thread-safe.
public final class Muxer {
    let context: UnsafeMutablePointer<AVFormatContext>
    /// The file the output will have when finished.
    public let path: String
    /// Where the output is written until it is finished (`/proc/self/fd/N` for an unnamed file).
    public let temporaryPath: String
    /// The unfinished output of a muxer that names its file when finished; nil for a recording.
    private let partial: PartialFile?
    private var state = State.configuring
    /// True for a recording written in place, which is kept (not removed) when unfinished.
    private var keepsUnfinishedOutput = false

    private enum State { case configuring, writing, finished, abandoned }

    /// Prepares to write `path`; the container follows the file extension unless `format`
    /// (an FFmpeg muxer name such as `mov`, `mp4`, `wav`) is given.
    public init(path: String, format: String? = nil, overwrite: Bool = false) throws(MediaError) {
        FFmpegLog.install()
        self.path = path
        let partial = try PartialFile(target: path, overwrite: overwrite)
        self.partial = partial
        temporaryPath = partial.writePath
        let guessed = av_guess_format(format, path, nil)
        guard let guessed else {
            throw MediaError(.writeFailed, path: path,
                             detail: "cannot tell the container from the name (use .mov, .mp4, .mkv, .wav, …)")
        }
        var allocated: UnsafeMutablePointer<AVFormatContext>?
        // The context's URL is the file FFmpeg writes (and reopens for faststart's second pass).
        let status = avformat_alloc_output_context2(&allocated, guessed, nil, temporaryPath)
        guard status >= 0, let allocated else {
            throw MediaError(.writeFailed, path: path, detail: "cannot create the container (\(FFmpegError(code: status).message))")
        }
        context = allocated
    }

    /// Prepares to write a recording in place at `path` (no temporary name): a fragmented
    /// recording that is cut off by a crash must be found under its own name, playable up to
    /// its last fragment. The target must not exist unless `overwrite` is set. `finish()`
    /// writes the trailer; an unfinished or failed recording is closed and kept, not removed.
    public init(recordingTo path: String, format: String? = nil, overwrite: Bool = false) throws(MediaError) {
        FFmpegLog.install()
        try OutputPath.checkWritable(path, overwrite: overwrite)
        self.path = path
        temporaryPath = path
        partial = nil
        keepsUnfinishedOutput = true
        guard let guessed = av_guess_format(format, path, nil) else {
            throw MediaError(.writeFailed, path: path,
                             detail: "cannot tell the container from the name (use .mov or .mp4)")
        }
        var allocated: UnsafeMutablePointer<AVFormatContext>?
        let status = avformat_alloc_output_context2(&allocated, guessed, nil, path)
        guard status >= 0, let allocated else {
            throw MediaError(.writeFailed, path: path, detail: "cannot create the container (\(FFmpegError(code: status).message))")
        }
        context = allocated
    }

    deinit {
        if state != .finished { abandon() }
        avformat_free_context(context)
    }

    /// True when encoders for this container must put codec headers out of band.
    public var needsGlobalHeader: Bool { context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 }

    /// Container-level tags written with the header.
    public func setMetadata(_ tags: [String: String]) {
        for (key, value) in tags { av_dict_set(&context.pointee.metadata, key, value, 0) }
    }

    /// Sets tags of one stream (QuickTime's `timecode` becomes a timecode track) before the header.
    public func setMetadata(_ tags: [String: String], stream index: Int) {
        for (key, value) in tags { av_dict_set(&streamPointer(index).pointee.metadata, key, value, 0) }
    }

    /// Adds a stream that carries packets copied from an input stream: codec parameters, time
    /// base, tags and stream side data (rotation, HDR metadata, Dolby Vision configuration)
    /// are carried over. Returns the new stream's index.
    @discardableResult
    public func addStream(copying index: Int, of demuxer: Demuxer) throws(FFmpegError) -> Int {
        let source = demuxer.streamPointer(index)
        let stream = try newStream()
        try check(avcodec_parameters_copy(stream.pointee.codecpar, source.pointee.codecpar), "copy stream parameters", path: path)
        stream.pointee.codecpar.pointee.codec_tag = compatibleTag(of: source.pointee.codecpar.pointee)
        stream.pointee.time_base = source.pointee.time_base
        stream.pointee.sample_aspect_ratio = source.pointee.sample_aspect_ratio
        stream.pointee.avg_frame_rate = source.pointee.avg_frame_rate
        stream.pointee.r_frame_rate = source.pointee.r_frame_rate
        stream.pointee.disposition = source.pointee.disposition
        av_dict_copy(&stream.pointee.metadata, source.pointee.metadata, 0)
        for entry in StreamSideData(source).entries {
            guard let copy = av_stream_new_side_data(stream, entry.type, entry.bytes.count) else {
                throw FFmpegError(code: FFmpegError.outOfMemory.code, operation: "copy side data", path: path)
            }
            copy.update(from: entry.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: entry.bytes.count)
        }
        return Int(stream.pointee.index)
    }

    /// Adds a stream for packets from an encoder. Returns the new stream's index.
    @discardableResult
    public func addStream(for encoder: Encoder) throws(FFmpegError) -> Int {
        let stream = try newStream()
        try check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder.context), "describe stream", path: path)
        stream.pointee.time_base = encoder.context.pointee.time_base
        stream.pointee.avg_frame_rate = encoder.context.pointee.framerate
        stream.pointee.sample_aspect_ratio = encoder.context.pointee.sample_aspect_ratio
        return Int(stream.pointee.index)
    }

    /// Declares the samples of priming an audio stream's packets start with (AAC: 1024), so
    /// that the container tells players to skip them; for packets copied from a container
    /// that does not keep it.
    public func setInitialPadding(_ samples: Int, stream index: Int) {
        streamPointer(index).pointee.codecpar.pointee.initial_padding = Int32(samples)
    }

    /// Sets a stream's time base before the header is written (the muxer may still change it).
    public func setTimeBase(_ timeBase: Rational, stream index: Int) {
        streamPointer(index).pointee.time_base = timeBase.avRational
    }

    /// Opens the temporary file and writes the header. `options` are muxer options such as
    /// `movflags` or `video_track_timescale`; an option the muxer does not know is an error
    /// (`MediaError`, `.unknownOption`). FFmpeg's failures are `FFmpegError`.
    public func writeHeader(options: [String: String] = [:]) throws {
        precondition(state == .configuring, "writeHeader called twice")
        if context.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            try check(avio_open(&context.pointee.pb, temporaryPath, AVIO_FLAG_WRITE), "create output", path: path)
        }
        state = .writing
        var dictionary = OptionDictionary(options)
        defer { dictionary.free() }
        try check(avformat_write_header(context, &dictionary.pointer), "write header", path: path)
        if let unknown = dictionary.firstKey {
            throw MediaError(.unknownOption, path: path, detail: "the muxer has no option '\(unknown)'")
        }
    }

    /// A stream's time base; after `writeHeader` this is what the muxer really chose.
    public func timeBase(ofStream index: Int) -> Rational { streamPointer(index).pointee.time_base.rational }

    /// Writes one packet, converting its timestamps from `packet.timeBase` to the stream's.
    /// The muxer takes the packet's payload reference; the `Packet` object stays valid, empty.
    public func write(_ packet: Packet, stream index: Int) throws(FFmpegError) {
        precondition(state == .writing, "write before writeHeader or after finish")
        packet.streamIndex = index
        let target = timeBase(ofStream: index)
        if packet.timeBase != target { packet.rescale(to: target) }
        try check(av_interleaved_write_frame(context, packet.pointer), "write packet", path: path)
        try checkIOError("write packet")
    }

    /// Writes the trailer, closes the file and moves it onto the target path. Throws
    /// `FFmpegError` when FFmpeg cannot finish the file, `MediaError` when it cannot be moved.
    public func finish() throws {
        precondition(state == .writing, "finish before writeHeader")
        do {
            try check(av_write_trailer(context), "write trailer", path: path)
            // After a failed write (e.g. ENOSPC) av_write_trailer can still return success.
            try checkIOError("write trailer")
            try closeFile()
            try partial?.publish()
            state = .finished
        } catch {
            abandon()
            throw error
        }
    }

    /// Stops writing and removes the temporary file; the target is left as it was.
    public func abandon() {
        guard state != .finished, state != .abandoned else { return }
        try? closeFile()
        if keepsUnfinishedOutput {
            if state == .configuring { unlink(temporaryPath) }
        } else {
            partial?.discard()
        }
        state = .abandoned
    }

    /// The input's codec tag (such as `hvc1`, which Apple players need) when this container
    /// can carry it for the codec, otherwise 0 so the muxer picks its own.
    private func compatibleTag(of parameters: AVCodecParameters) -> UInt32 {
        guard let tags = context.pointee.oformat.pointee.codec_tag else { return parameters.codec_tag }
        var known: UInt32 = 0
        if av_codec_get_id(tags, parameters.codec_tag) == parameters.codec_id
            || av_codec_get_tag2(tags, parameters.codec_id, &known) == 0 {
            return parameters.codec_tag
        }
        return 0
    }

    private func newStream() throws(FFmpegError) -> UnsafeMutablePointer<AVStream> {
        precondition(state == .configuring, "streams must be added before writeHeader")
        guard let stream = avformat_new_stream(context, nil) else {
            throw FFmpegError(code: FFmpegError.outOfMemory.code, operation: "add stream", path: path)
        }
        return stream
    }

    private func streamPointer(_ index: Int) -> UnsafeMutablePointer<AVStream> {
        precondition(index >= 0 && index < Int(context.pointee.nb_streams), "stream \(index) out of range")
        return context.pointee.streams[index]!
    }

    private func checkIOError(_ operation: String) throws(FFmpegError) {
        if let io = context.pointee.pb, io.pointee.error < 0 {
            throw FFmpegError(code: io.pointee.error, operation: operation, path: path)
        }
    }

    private func closeFile() throws(FFmpegError) {
        guard context.pointee.pb != nil, context.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 else { return }
        avio_flush(context.pointee.pb)
        let error = context.pointee.pb.pointee.error
        try check(avio_closep(&context.pointee.pb), "close output", path: path)
        try check(error, "close output", path: path)
    }
}
