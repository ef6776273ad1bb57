import CFFmpeg
import COnDemand
import SlomoConcurrency
import SlomoCore

/// A libavfilter graph with one input and one output: frames pushed into a buffer source,
/// through a filter description (`"scale=640:360,format=yuv420p"`), out of a buffer sink.
/// Push a frame, then pull until nil; at the end push end-of-stream and pull until nil.
/// Not thread-safe.
public final class FilterGraph {
    private let graph: UnsafeMutablePointer<AVFilterGraph>
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>
    private let library: SlomoFilterFunctions

    /// The description of the frames a video graph takes in.
    public struct VideoInput: Sendable {
        public var width: Int
        public var height: Int
        public var pixelFormat: PixelFormat
        public var timeBase: Rational
        public var sampleAspectRatio: Rational
        public var frameRate: Rational?

        public init(width: Int, height: Int, pixelFormat: PixelFormat, timeBase: Rational,
                    sampleAspectRatio: Rational = Rational(1), frameRate: Rational? = nil) {
            self.width = width
            self.height = height
            self.pixelFormat = pixelFormat
            self.timeBase = timeBase
            self.sampleAspectRatio = sampleAspectRatio
            self.frameRate = frameRate
        }
    }

    /// A graph over video frames.
    public convenience init(video input: VideoInput, description: String) throws {
        var arguments = "video_size=\(input.width)x\(input.height):pix_fmt=\(input.pixelFormat.raw.rawValue)"
            + ":time_base=\(input.timeBase.numerator)/\(input.timeBase.denominator)"
            + ":pixel_aspect=\(input.sampleAspectRatio.numerator)/\(input.sampleAspectRatio.denominator)"
        if let rate = input.frameRate { arguments += ":frame_rate=\(rate.numerator)/\(rate.denominator)" }
        try self.init(sourceFilter: "buffer", sinkFilter: "buffersink", arguments: arguments, description: description)
    }

    /// A graph over audio frames whose time base is 1/sample rate.
    public convenience init(audio input: AudioFormat, description: String) throws {
        let arguments = "time_base=1/\(input.sampleRate):sample_rate=\(input.sampleRate)"
            + ":sample_fmt=\(input.sampleFormat.name):channel_layout=\(input.layout.name)"
        try self.init(sourceFilter: "abuffer", sinkFilter: "abuffersink", arguments: arguments, description: description)
    }

    /// Throws `MediaError` (`.libraryUnavailable`) when libavfilter cannot be loaded, `FFmpegError`
    /// when FFmpeg refuses the graph.
    private init(sourceFilter: String, sinkFilter: String, arguments: String, description: String) throws {
        FFmpegLog.install()
        let library = try OnDemandLibraries.filters()
        self.library = library
        guard let graph = library.graph_alloc() else {
            throw FFmpegError(code: FFmpegError.outOfMemory.code, operation: "allocate filter graph")
        }
        self.graph = graph
        var source: UnsafeMutablePointer<AVFilterContext>?
        var sink: UnsafeMutablePointer<AVFilterContext>?
        do throws(FFmpegError) {
            try check(library.graph_create_filter(&source, library.get_by_name(sourceFilter), "in", arguments, nil, graph),
                      "create \(sourceFilter) (\(arguments))")
            try check(library.graph_create_filter(&sink, library.get_by_name(sinkFilter), "out", nil, nil, graph),
                      "create \(sinkFilter)")
            // The graph description's unlabelled input is fed by "in", its output drains into "out".
            var outputs = library.inout_alloc()
            var inputs = library.inout_alloc()
            defer {
                library.inout_free(&outputs)
                library.inout_free(&inputs)
            }
            outputs?.pointee.name = av_strdup("in")
            outputs?.pointee.filter_ctx = source
            inputs?.pointee.name = av_strdup("out")
            inputs?.pointee.filter_ctx = sink
            try check(library.graph_parse_ptr(graph, description, &inputs, &outputs, nil), "parse filter graph '\(description)'")
            try check(library.graph_config(graph, nil), "configure filter graph '\(description)'")
        } catch {
            var doomed: UnsafeMutablePointer<AVFilterGraph>? = graph
            library.graph_free(&doomed)
            throw error
        }
        self.source = source!
        self.sink = sink!
    }

    deinit {
        var doomed: UnsafeMutablePointer<AVFilterGraph>? = graph
        library.graph_free(&doomed)
    }

    /// The time base of the frames that come out.
    public var outputTimeBase: Rational { library.buffersink_get_time_base(sink).rational }

    /// Pushes one frame in (the graph takes a new reference; the frame stays valid).
    public func push(_ frame: Frame) throws(FFmpegError) {
        try check(library.buffersrc_write_frame(source, frame.pointer), "filter")
    }

    /// Tells the graph no more frames come.
    public func pushEndOfStream() throws(FFmpegError) {
        try check(library.buffersrc_add_frame_flags(source, nil, 0), "flush filter graph")
    }

    /// The next filtered frame, or nil when the graph needs more input or has finished; the
    /// caller's alone (`disconnected`), so it may go to another thread.
    public func pull() throws(FFmpegError) -> sending Frame? {
        let frame = Frame(timeBase: outputTimeBase)
        let status = library.buffersink_get_frame(sink, frame.pointer)
        if status == FFmpegError.tryAgain.code || status == FFmpegError.endOfFile.code { return nil }
        try check(status, "filter")
        return disconnected(consume frame)
    }

    /// Pushes a frame (or end-of-stream for nil) and returns every frame that is ready.
    public func process(_ frame: Frame?) throws(FFmpegError) -> [Frame] {
        if let frame { try push(frame) } else { try pushEndOfStream() }
        return try drain(pull)
    }
}
