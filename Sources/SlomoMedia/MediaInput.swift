/// What to open as a live or device input: a URL or device name, the FFmpeg input format that
/// reads it (`lavfi`, `x11grab`, `v4l2`, `pulse`, `alsa`; nil lets FFmpeg probe), and that
/// format's options (`framerate`, `video_size`, `input_format`, `rtbufsize`, `timeout`, …).
///
/// Where `Demuxer(path:)` opens a file, `Demuxer(input:)` opens one of these.
public struct MediaInput: Hashable, Sendable, CustomStringConvertible {
    /// The URL, device or filter graph, e.g. `/dev/video0`, `:99+0,0`, `udp://…`.
    public var url: String
    /// FFmpeg's input format name; nil to let FFmpeg probe the URL.
    public var format: String?
    /// Options for the input format and protocol. An option nobody used is an error.
    public var options: [String: String]

    public init(url: String, format: String? = nil, options: [String: String] = [:]) {
        self.url = url
        self.format = format
        self.options = options
    }

    /// `format:url`, as a user would recognise it in a message.
    public var description: String { format.map { "\($0):\(url)" } ?? url }
}
