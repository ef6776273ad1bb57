import CFFmpeg
import Glibc
import SlomoConcurrency
import SlomoCore

/// Reads the packets of a media file in container order. Owns its `AVFormatContext`; not
/// thread-safe (confine it to one task).
public final class Demuxer {
    let context: UnsafeMutablePointer<AVFormatContext>
    /// What is in the file, read when it was opened.
    public let file: MediaFile
    /// The path the file was opened with.
    public var path: String { file.path }

    /// Opens a file and reads its stream information. Fails with a one-line `MediaError` for a
    /// missing path, a directory, an empty file, something FFmpeg cannot read, or no streams.
    public init(path: String) throws(MediaError) {
        try Demuxer.checkReadable(path)
        FFmpegLog.install()
        let mark = FFmpegLog.mark
        var opened: UnsafeMutablePointer<AVFormatContext>?
        let status = avformat_open_input(&opened, path, nil, nil)
        guard status >= 0, let opened else {
            // On failure avformat_open_input has freed the context already.
            throw MediaError(.unreadable, path: path,
                             detail: Demuxer.explain("not a media file slomo can read", status, since: mark))
        }
        Demuxer.limitContentProbing(opened)
        let found = avformat_find_stream_info(opened, nil)
        guard found >= 0 else {
            var doomed: UnsafeMutablePointer<AVFormatContext>? = opened
            avformat_close_input(&doomed)
            throw MediaError(.damaged, path: path, detail: Demuxer.explain("cannot read stream information", found, since: mark))
        }
        guard opened.pointee.nb_streams > 0 else {
            var doomed: UnsafeMutablePointer<AVFormatContext>? = opened
            avformat_close_input(&doomed)
            throw MediaError(.noStreams, path: path, detail: "the file contains no audio or video streams")
        }
        context = opened
        // What the file holds (and its damage, found by scanning its index and boxes) is read
        // once per file: every later demuxer of the same, unchanged file takes it from the cache.
        if let known = MediaFileCache.file(at: path) {
            file = known
        } else {
            file = MediaFile(context: opened, path: path)
            MediaFileCache.remember(file)
        }
    }

    /// FFmpeg probes the PCM of a WAV file packet by packet for other audio mislabelled as PCM,
    /// re-running every demuxer's probe on the growing buffer for up to 2500 packets: 15 ms per
    /// open of a 16-bit stereo WAV, where reading the header takes 0.8 ms. Four packets (16 KB
    /// at 48 kHz stereo) hold several frames of any such codec; probing them costs 1.8 ms.
    /// (S/PDIF-wrapped AC-3 or DTS is found separately, from the first 64 KB, while the header
    /// is read.)
    private static func limitContentProbing(_ context: UnsafeMutablePointer<AVFormatContext>) {
        if String(cString: context.pointee.iformat.pointee.name) == "wav" { context.pointee.max_probe_packets = 4 }
    }

    /// Polled by FFmpeg while this demuxer blocks; kept alive as long as the context.
    private var interruptFlag: InterruptFlag?

    /// Opens a live or device input (a lavfi graph, an x11grab screen, a V4L2 camera, a
    /// PulseAudio source, a network URL) with an input format and its options, and reads its
    /// stream information. `interrupt` is polled whenever FFmpeg blocks: raise it (or give it a
    /// deadline) to make a blocked open or read return. An option the input does not know is
    /// an error.
    public init(input: MediaInput, interrupt: InterruptFlag? = nil) throws(MediaError) {
        FFmpegLog.install()
        do {
            _ = try OnDemandLibraries.devices()
        } catch {
            throw MediaError(.libraryUnavailable, path: input.description, detail: error.detail)
        }
        let mark = FFmpegLog.mark
        var format: UnsafePointer<AVInputFormat>?
        if let name = input.format {
            format = av_find_input_format(name)
            guard format != nil else {
                throw MediaError(.unsupportedCodec, path: input.description,
                                 detail: "this FFmpeg build has no input format '\(name)'")
            }
        }
        guard let allocated = avformat_alloc_context() else {
            throw MediaError(.unreadable, path: input.description, detail: "out of memory")
        }
        if let interrupt { allocated.pointee.interrupt_callback = interrupt.callback }
        var opened: UnsafeMutablePointer<AVFormatContext>? = allocated
        var dictionary = OptionDictionary(input.options)
        defer { dictionary.free() }
        let status = avformat_open_input(&opened, input.url, format, &dictionary.pointer)
        guard status >= 0, let opened else {
            // On failure avformat_open_input has freed the context already.
            let kind: MediaError.Kind = status == slomo_averror(ENOENT) ? .notFound : .unreadable
            let summary = interrupt?.isRaised == true ? "no answer in time (timed out or stopped)" : "cannot open the input"
            throw MediaError(kind, path: input.description, detail: Demuxer.explain(summary, status, since: mark))
        }
        if let unknown = dictionary.firstKey {
            var doomed: UnsafeMutablePointer<AVFormatContext>? = opened
            avformat_close_input(&doomed)
            throw MediaError(.unreadable, path: input.description, detail: "the input has no option '\(unknown)'")
        }
        let found = avformat_find_stream_info(opened, nil)
        guard found >= 0, opened.pointee.nb_streams > 0 else {
            var doomed: UnsafeMutablePointer<AVFormatContext>? = opened
            avformat_close_input(&doomed)
            throw MediaError(.damaged, path: input.description,
                             detail: Demuxer.explain("cannot read stream information", found, since: mark))
        }
        context = opened
        interruptFlag = interrupt
        file = MediaFile(context: opened, path: input.description)
    }

    deinit {
        var doomed: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&doomed)
    }

    /// The next packet in container order, or nil at the end of the file. Timestamps are in
    /// the time base of the packet's stream. The packet is the caller's alone (`disconnected`),
    /// so it may go to another thread.
    public func read() throws(FFmpegError) -> sending Packet? {
        let packet = Packet()
        let status = av_read_frame(context, packet.pointer)
        if status == FFmpegError.endOfFile.code { return nil }
        try check(status, "read packet", path: path)
        packet.timeBase = streamPointer(packet.streamIndex).pointee.time_base.rational
        return disconnected(consume packet)
    }

    /// Reads only the given streams from now on: the container skips the others' data.
    public func select(streams indices: Set<Int>) {
        for index in 0..<Int(context.pointee.nb_streams) {
            streamPointer(index).pointee.discard = indices.contains(index) ? AVDISCARD_DEFAULT : AVDISCARD_ALL
        }
    }

    /// Seeks so that the next packets read start at the last keyframe at or before `time` in
    /// the given stream.
    public func seek(to time: MediaTime, stream index: Int) throws(FFmpegError) {
        let timeBase = streamPointer(index).pointee.time_base.rational
        let ticks = (try? time.ticks(in: timeBase, rounding: .down)) ?? 0
        try check(av_seek_frame(context, Int32(index), ticks, AVSEEK_FLAG_BACKWARD), "seek", path: path)
    }

    /// How many frames stream `index` holds back for reordering (B-frames): its decoding
    /// times run that many frames behind its presentation times. 0 without B-frames.
    public func reorderDelay(of index: Int) -> Int {
        Int(streamPointer(index).pointee.codecpar.pointee.video_delay)
    }

    /// The codec's extradata of stream `index` (H.264's `avcC`, HEVC's `hvcC`…), empty when it has none.
    public func extradata(of index: Int) -> [UInt8] {
        let parameters = streamPointer(index).pointee.codecpar.pointee
        guard let bytes = parameters.extradata, parameters.extradata_size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(parameters.extradata_size)))
    }

    func streamPointer(_ index: Int) -> UnsafeMutablePointer<AVStream> {
        precondition(index >= 0 && index < Int(context.pointee.nb_streams), "stream \(index) out of range")
        return context.pointee.streams[index]!
    }

    /// Rejects what FFmpeg would only describe vaguely: no such path, a folder, an empty file.
    private static func checkReadable(_ path: String) throws(MediaError) {
        var info = stat()
        do throws(SystemError) { try SystemError.check("stat") { stat(path, &info) } } catch {
            if error.code == ENOENT { throw MediaError(.notFound, path: path, detail: "no such file") }
            throw MediaError(.unreadable, path: path, detail: error.message)
        }
        if info.st_mode & S_IFMT == S_IFDIR { throw MediaError(.notAFile, path: path, detail: "is a directory, not a media file") }
        if info.st_mode & S_IFMT == S_IFREG && info.st_size == 0 {
            throw MediaError(.empty, path: path, detail: "the file is empty")
        }
        do throws(SystemError) { try SystemError.check("access") { access(path, R_OK) } } catch {
            throw MediaError(.unreadable, path: path, detail: "cannot be read (\(error.message))")
        }
    }

    /// `summary (FFmpeg's own complaint)`, with the complaint from the log when there was one.
    static func explain(_ summary: String, _ status: Int32, since mark: Int) -> String {
        let complaint = FFmpegLog.errors(since: mark).last ?? FFmpegError(code: status).message
        return "\(summary) (\(complaint))"
    }
}
