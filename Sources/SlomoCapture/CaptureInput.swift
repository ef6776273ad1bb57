import Foundation
import SlomoCore
import SlomoMedia

/// A source a `CaptureSession` records from: what it is, and how FFmpeg opens it.
///
/// Built with the static constructors (`.testPattern(width:height:frameRate:)`, `.screen(…)`,
/// `.camera(…)`, `.url(…)`, `.sine(…)`, `.pulse(…)`, `.alsa(…)`) or parsed from the command
/// line's `--input` syntax with `init(parsing:options:)`.
public struct CaptureInput: Hashable, Sendable, CustomStringConvertible {
    /// What kind of source this is.
    public enum Kind: String, Hashable, Sendable, Codable {
        case testPattern, screen, camera, url, sine, pulse, alsa
    }

    public let kind: Kind
    /// How FFmpeg opens the source.
    public var mediaInput: MediaInput
    /// True for sources that deliver sound, false for pictures (a `url:` may carry both; its
    /// first video stream is recorded, or its first audio stream when it has no video).
    public let isAudio: Bool
    /// True when the reader must pace the source to its timestamps (a file read at its
    /// native rate); live sources pace themselves.
    public var pacesToTimestamps = false
    /// The user's spelling, for messages.
    public let label: String
    /// For cameras: the format asked for, checked against what the device lists.
    public var requestedFormat: CaptureFormat.Request?
    /// For cameras: the FFmpeg pixel format asked for (`mjpeg`, `yuyv422`, …).
    public var requestedPixelFormat: String?

    public var description: String { label }

    init(kind: Kind, mediaInput: MediaInput, isAudio: Bool, label: String) {
        self.kind = kind
        self.mediaInput = mediaInput
        self.isAudio = isAudio
        self.label = label
    }

    /// A synthetic source paced in real time: SMPTE HD colour bars with a white box moving 8
    /// pixels a frame. At 720p240 libx264 alone takes most of a 2-core budget, so the pattern
    /// must cost next to nothing: a cycle of `patternCycle` pictures is drawn once by lavfi
    /// when the session starts (the box runs across part of the picture and jumps back), and
    /// the reader releases it by reference, on time, over and over (`CaptureSource.cycle`).
    /// Generating every frame with lavfi instead (`overlay` copying the bars, the lavfi device
    /// copying the picture into a packet, fresh memory each time) took 40 % of the capture's
    /// CPU time besides the encoder's.
    public static func testPattern(width: Int, height: Int, frameRate: Rational) -> CaptureInput {
        let rate = "\(frameRate.numerator)/\(frameRate.denominator)"
        let box = max(8, min(width, height) / 12)
        let graph = "smptehdbars=size=\(width)x\(height):rate=\(rate),format=yuv420p[bg];"
            + "color=c=white:size=\(box)x\(box):rate=\(rate),format=yuv420p[box];"
            + "[bg][box]overlay=x='mod(n*8,W-w)':y=(H-h)/2:shortest=1,"
            + "trim=end_frame=\(patternCycle(width: width, height: height))"
        return CaptureInput(kind: .testPattern, mediaInput: MediaInput(url: graph, format: "lavfi"), isAudio: false,
                            label: "testsrc:\(width)x\(height)@\(frameRate)")
    }

    /// Frames in the test pattern's cycle: as many as 64 MB of pictures hold, 2 to 240.
    static func patternCycle(width: Int, height: Int) -> Int {
        min(240, max(2, (64 << 20) / max(1, width * height * 3 / 2)))
    }

    /// A sine tone (amplitude 0.5 by default, i.e. −6.02 dBFS peak), paced in real time.
    public static func sine(frequency: Double, amplitude: Double = 0.5, sampleRate: Int = 48000) -> CaptureInput {
        // lavfi's `sine` has a fixed amplitude of 1/8: `volume` scales it to the one asked for.
        let gain = amplitude * 8
        let graph = "sine=frequency=\(frequency):sample_rate=\(sampleRate):samples_per_frame=\(sampleRate / 100),"
            + "volume=\(gain):precision=float,aformat=sample_fmts=flt,arealtime"
        return CaptureInput(kind: .sine, mediaInput: MediaInput(url: graph, format: "lavfi"), isAudio: true,
                            label: "sine:\(Self.number(frequency))")
    }

    /// The screen of an X display through x11grab. `display` is e.g. `:99`; the rectangle
    /// starts at `x`,`y` and is `size` large (the whole screen when nil).
    public static func screen(display: String, x: Int = 0, y: Int = 0, size: (width: Int, height: Int)? = nil,
                              frameRate: Rational = Rational(30), drawsCursor: Bool = true) -> CaptureInput {
        var options = ["framerate": "\(frameRate.numerator)/\(frameRate.denominator)",
                       "draw_mouse": drawsCursor ? "1" : "0"]
        if let size { options["video_size"] = "\(size.width)x\(size.height)" }
        let url = (x != 0 || y != 0) ? "\(display)+\(x),\(y)" : display
        return CaptureInput(kind: .screen, mediaInput: MediaInput(url: url, format: "x11grab", options: options),
                            isAudio: false, label: "x11:\(url)")
    }

    /// A V4L2 camera, e.g. `/dev/video0`, in the given format (the driver's current one when
    /// nil) and pixel format (`mjpeg`, `yuyv422`, `h264`, …).
    public static func camera(_ device: String, format: CaptureFormat.Request? = nil,
                              pixelFormat: String? = nil) -> CaptureInput {
        var options: [String: String] = [:]
        if let format {
            options["video_size"] = "\(format.width)x\(format.height)"
            if let rate = format.frameRate { options["framerate"] = "\(rate.numerator)/\(rate.denominator)" }
        }
        if let pixelFormat { options["input_format"] = pixelFormat }
        var input = CaptureInput(kind: .camera, mediaInput: MediaInput(url: device, format: "v4l2", options: options),
                                 isAudio: false, label: "v4l2:\(device)")
        input.requestedFormat = format
        input.requestedPixelFormat = pixelFormat
        return input
    }

    /// Any FFmpeg input: a UDP/RTP/SRT/RTSP stream, a pipe or FIFO, a file (read at its native
    /// rate). Network protocols get a timeout (`timeoutSeconds`) so an unreachable address fails.
    public static func url(_ url: String, format: String? = nil, timeoutSeconds: Double = 10) -> CaptureInput {
        var options: [String: String] = [:]
        let scheme = url.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        let microseconds = String(Int(timeoutSeconds * 1_000_000))
        switch scheme {
        case "udp", "rtp": options["timeout"] = microseconds
        case "tcp", "srt", "http", "https": options["rw_timeout"] = microseconds
        case "rtsp": options["timeout"] = microseconds
        default: break
        }
        var input = CaptureInput(kind: .url, mediaInput: MediaInput(url: url, format: format, options: options),
                                 isAudio: false, label: "url:\(url)")
        input.pacesToTimestamps = (try? FileSystem.status(of: url)).map { $0.st_mode & S_IFMT == S_IFREG } ?? false
        return input
    }

    /// A PulseAudio source (e.g. `default`, or `NAME.monitor` to record what a sink plays).
    public static func pulse(_ source: String) -> CaptureInput {
        CaptureInput(kind: .pulse, mediaInput: MediaInput(url: source, format: "pulse", options: ["fragment_size": "1920"]),
                     isAudio: true, label: "pulse:\(source)")
    }

    /// An ALSA capture device (e.g. `default`, `hw:1,0`).
    public static func alsa(_ device: String) -> CaptureInput {
        CaptureInput(kind: .alsa, mediaInput: MediaInput(url: device, format: "alsa"), isAudio: true, label: "alsa:\(device)")
    }

    /// The options of the command line that shape inputs.
    public struct ParsingOptions: Sendable {
        /// `--cursor` / `--no-cursor` for `x11:`.
        public var drawsCursor = true
        /// `--format WxH@FPS` for `v4l2:`.
        public var format: CaptureFormat.Request?
        /// `--pixel-format` for `v4l2:`.
        public var pixelFormat: String?
        /// Seconds to wait for a `url:` to answer.
        public var timeoutSeconds: Double = 10

        public init() {}
    }

    /// Parses `testsrc:1280x720@240`, `x11::99+10,20/640x480@60`, `v4l2:/dev/video0`, `url:udp://…`,
    /// `sine:440`, `pulse:SOURCE`, `alsa:DEVICE`.
    public init(parsing spec: String, options: ParsingOptions = ParsingOptions()) throws(CaptureError) {
        guard let colon = spec.firstIndex(of: ":") else {
            throw CaptureError(.invalidInput, SettingIssue(.input, "'\(spec)'", "expected KIND:VALUE, e.g. testsrc:1280x720@240, x11::0, "
                                                           + "v4l2:/dev/video0, url:udp://0.0.0.0:5000, sine:440, pulse:default"))
        }
        let kind = String(spec[..<colon])
        let value = String(spec[spec.index(after: colon)...])
        func invalid(_ why: String) -> CaptureError { CaptureError(.invalidInput, SettingIssue(.input, "'\(spec)'", why)) }
        switch kind {
        case "testsrc":
            guard let format = CaptureFormat.Request(parsing: value), let rate = format.frameRate else {
                throw invalid("expected testsrc:WIDTHxHEIGHT@FPS, e.g. testsrc:1280x720@240")
            }
            guard format.width >= 16, format.height >= 16, format.width <= 7680, format.height <= 4320,
                  format.width % 2 == 0, format.height % 2 == 0 else {
                throw invalid("the size must be even and between 16x16 and 7680x4320")
            }
            guard rate.numerator > 0, rate.doubleValue <= 1000 else { throw invalid("the frame rate must be between 0 and 1000 fps") }
            self = .testPattern(width: format.width, height: format.height, frameRate: rate)
        case "sine":
            guard let frequency = Double(value), frequency > 0, frequency < 24000 else {
                throw invalid("expected a frequency in Hz below 24000, e.g. sine:440")
            }
            self = .sine(frequency: frequency)
        case "x11":
            self = try Self.screen(parsing: value, drawsCursor: options.drawsCursor, invalid: invalid)
        case "v4l2":
            guard value.hasPrefix("/dev/") else { throw invalid("expected a device path, e.g. v4l2:/dev/video0") }
            self = .camera(value, format: options.format, pixelFormat: options.pixelFormat)
        case "url":
            guard !value.isEmpty else { throw invalid("expected an FFmpeg URL, e.g. url:udp://0.0.0.0:5000 or url:/tmp/fifo") }
            self = .url(value, timeoutSeconds: options.timeoutSeconds)
        case "pulse":
            self = .pulse(value.isEmpty ? "default" : value)
        case "alsa":
            self = .alsa(value.isEmpty ? "default" : value)
        default:
            throw invalid("unknown kind '\(kind)'; expected testsrc, x11, v4l2, url, sine, pulse or alsa")
        }
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    public static func == (lhs: CaptureInput, rhs: CaptureInput) -> Bool {
        lhs.kind == rhs.kind && lhs.mediaInput == rhs.mediaInput && lhs.isAudio == rhs.isAudio
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(mediaInput)
    }
}

extension CaptureInput {
    /// `x11:DISPLAY[+X,Y][/WxH][@FPS]`: the screen (or the WxH rectangle at X,Y) at FPS
    /// (default 30), written like `testsrc:WxH@FPS`.
    static func screen(parsing value: String, drawsCursor: Bool,
                       invalid: (String) -> CaptureError) throws(CaptureError) -> CaptureInput {
        let usage = "expected x11:DISPLAY[+X,Y][/WIDTHxHEIGHT][@FPS], e.g. x11::0, x11::99+100,200/640x480@60"
        var rest = Substring(value)
        var frameRate = Rational(30)
        if let at = rest.lastIndex(of: "@") {
            guard let rate = Rational(frameRate: String(rest[rest.index(after: at)...])), rate.numerator > 0,
                  rate.doubleValue <= 1000 else { throw invalid("the frame rate after '@' must be between 0 and 1000 fps; \(usage)") }
            frameRate = rate
            rest = rest[..<at]
        }
        var size: (width: Int, height: Int)?
        if let slash = rest.lastIndex(of: "/") {
            guard let format = CaptureFormat.Request(parsing: String(rest[rest.index(after: slash)...])), format.frameRate == nil,
                  format.width >= 16, format.height >= 16, format.width % 2 == 0, format.height % 2 == 0 else {
                throw invalid("the rectangle after '/' must be an even WIDTHxHEIGHT of at least 16x16; \(usage)")
            }
            size = (format.width, format.height)
            rest = rest[..<slash]
        }
        var x = 0, y = 0
        if let plus = rest.lastIndex(of: "+") {
            let corner = rest[rest.index(after: plus)...].split(separator: ",")
            guard corner.count == 2, let cx = Int(corner[0]), let cy = Int(corner[1]), cx >= 0, cy >= 0 else {
                throw invalid("the corner after '+' must be X,Y; \(usage)")
            }
            (x, y) = (cx, cy)
            rest = rest[..<plus]
        }
        guard !rest.isEmpty else { throw invalid(usage) }
        return .screen(display: String(rest), x: x, y: y, size: size, frameRate: frameRate, drawsCursor: drawsCursor)
    }
}
