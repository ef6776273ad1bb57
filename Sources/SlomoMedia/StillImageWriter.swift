import CFFmpeg
import Glibc
import SlomoCore

/// Writes one decoded video picture as a still picture file, the format chosen by the file
/// name's extension (`StillImageFormat`): PNG and TIFF in 8-bit RGB, or 16-bit RGB for pictures
/// deeper than 8 bits (10-bit, 12-bit), and JPEG in 8 bits at quality 95 %.
///
/// Y'CbCr pictures become RGB with their own matrix and range (BT.601, BT.709, BT.2020; limited
/// or full: `Scaler.useColorimetry`). HDR pictures (PQ, HLG) written in 8 bits are tone-mapped to
/// BT.709 SDR by the chain exports and the player use (`VideoInfo.toneMapToSDRFilter`); in 16
/// bits they keep their signal. A rotated stream's picture is turned upright, as ffmpeg and
/// `slomo play` show it. The file appears complete or not at all (`PartialFile`), and an
/// existing one is replaced only with `overwrite`.
///
/// Needs no open file: a recording can write the picture it holds with what it knows of its
/// colour.
///
/// ```swift
/// let writer = StillImageWriter(video: stream.video!)     // or StillImageWriter(color: …)
/// let still = try writer.write(frame, to: "impact.png")
/// print(still.width, still.height, still.bitDepth)
/// ```
public struct StillImageWriter: Sendable {
    /// The pictures' colour (FFmpeg's names: `bt709`, `bt2020nc`, `arib-std-b67`, `tv`/`pc`).
    /// A field left nil is taken from each frame's own tags; with neither, BT.709 limited range.
    public var color: ColorInfo
    /// True for HDR pictures, which 8-bit files get tone-mapped; nil: HDR when the transfer
    /// (given or the frame's) is PQ (`smpte2084`) or HLG (`arib-std-b67`).
    public var isHDR: Bool?
    /// The stream's rotation as `VideoInfo.rotation` has it (the display matrix's degrees,
    /// counterclockwise); right angles are turned upright, others ignored.
    public var rotation: Int
    /// Replace an existing file; without it an existing file is kept and refused.
    public var overwrite: Bool

    /// A writer of pictures of the stream `video` describes (colour, HDR, rotation).
    public init(video: VideoInfo, overwrite: Bool = false) {
        self.init(color: video.color, isHDR: video.isHDR, rotation: video.rotation, overwrite: overwrite)
    }

    /// A writer of pictures whose colour is `color` (nil, or nil fields: each frame's tags),
    /// HDR or not (nil: by the transfer), rotated by `rotation` degrees counterclockwise.
    public init(color: ColorInfo? = nil, isHDR: Bool? = nil, rotation: Int = 0, overwrite: Bool = false) {
        self.color = color ?? ColorInfo()
        self.isHDR = isHDR
        self.rotation = rotation
        self.overwrite = overwrite
    }

    /// Writes `frame` (a decoded video picture of any pixel format) to `path` and says what was
    /// written. Throws `MediaError` for an extension that is no still format, an output that
    /// may not be written (`.outputExists`, `.outputFolderMissing`) or cannot be, and
    /// `FFmpegError` when converting or encoding fails.
    @discardableResult
    public func write(_ frame: Frame, to path: String) throws -> StillImage {
        let format = try StillImageFormat(path: path)
        try OutputPath.checkWritable(path, overwrite: overwrite)
        guard frame.width > 0, frame.height > 0 else {
            throw MediaError(.invalidArgument, path: path, detail: "the frame holds no picture")
        }
        let bitDepth = format.bitDepth(forSourceDepth: frame.pixelFormat.bitDepth ?? 8)
        var picture = frame
        var pictureColor = colour(of: frame)
        let toneMaps = bitDepth == 8 && (isHDR ?? Self.hdrTransfers.contains(pictureColor.transfer ?? ""))
        if toneMaps {
            picture = try Self.filtered(picture, through: Self.toneMapChain(for: pictureColor) + ",format=yuv444p")
            pictureColor = Self.toneMappedColour
        }
        let rgbFormat = format == .jpeg ? PixelFormat.rgb24 : format.pixelFormat(bitDepth: bitDepth)
        picture = try Self.converted(picture, to: rgbFormat, colour: Self.isRGB(picture.pixelFormat) ? nil : pictureColor)
        if format == .jpeg {
            // JPEG readers assume JFIF's full-range BT.601 Y'CbCr.
            picture = try Self.converted(picture, to: format.pixelFormat(bitDepth: 8),
                                         colour: ColorInfo(matrix: "smpte170m", range: "pc"), toRGB: false)
        }
        if let upright = Self.uprightFilter(rotation: rotation) {
            picture = try Self.filtered(picture, through: upright)
        }
        try Self.save(try Self.encoded(picture, as: format), to: path, overwrite: overwrite)
        return StillImage(path: path, format: format, width: picture.width, height: picture.height, bitDepth: bitDepth,
                          toneMapped: toneMaps)
    }

    /// The frame's colour: what the writer was told, else the frame's tags; J formats
    /// (`yuvj420p`, a camera's Motion JPEG) are full range whatever the tags say.
    private func colour(of frame: Frame) -> ColorInfo {
        let own = frame.color
        let fullRange = frame.pixelFormat.name.hasPrefix("yuvj")
        return ColorInfo(primaries: color.primaries ?? own.primaries, transfer: color.transfer ?? own.transfer,
                         matrix: color.matrix ?? own.matrix, range: fullRange ? "pc" : color.range ?? own.range)
    }

    private static let hdrTransfers: Set<String> = ["smpte2084", "arib-std-b67"]

    /// The colour the tone-mapping chain ends in.
    private static let toneMappedColour = ColorInfo(primaries: "bt709", transfer: "bt709", matrix: "bt709", range: "tv")

    /// The export's tone-mapping chain for pictures of `color`.
    private static func toneMapChain(for color: ColorInfo) -> String {
        VideoInfo(width: 0, height: 0, pixelFormat: "", bitDepth: nil, sampleAspectRatio: nil, rotation: 0, nominalFrameRate: nil,
                  averageFrameRate: nil, highFrameRate: false, color: color, hdr: nil).toneMapToSDRFilter
    }

    /// The filters that turn a picture rotated by `rotation` degrees (counterclockwise, as the
    /// display matrix says) upright, as ffmpeg's autorotation does; nil when it is upright.
    static func uprightFilter(rotation: Int) -> String? {
        switch (rotation % 360 + 360) % 360 {
        case 90: "transpose=cclock"
        case 180: "hflip,vflip"
        case 270: "transpose=clock"
        default: nil
        }
    }

    /// True for packed or planar RGB pixel formats (which need no matrix).
    private static func isRGB(_ format: PixelFormat) -> Bool {
        guard let descriptor = av_pix_fmt_desc_get(format.raw) else { return false }
        return descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
    }

    /// `frame` in `format` at its size; between Y'CbCr and RGB with `colour`'s matrix and range
    /// (nil: RGB to RGB).
    private static func converted(_ frame: Frame, to format: PixelFormat, colour: ColorInfo?, toRGB: Bool = true) throws -> Frame {
        let scaler = try Scaler(width: frame.width, height: frame.height, format: frame.pixelFormat,
                                toWidth: frame.width, height: frame.height, format: format)
        if let colour { scaler.useColorimetry(of: colour, toRGB: toRGB) }
        return try scaler.scale(frame)
    }

    /// `frame` through the libavfilter chain `description`.
    private static func filtered(_ frame: Frame, through description: String) throws -> Frame {
        let graph = try FilterGraph(video: .init(width: frame.width, height: frame.height, pixelFormat: frame.pixelFormat,
                                                 timeBase: frame.timeBase), description: description)
        guard let result = (try graph.process(frame) + graph.process(nil)).last else {
            throw MediaError(.invalidArgument, detail: "the filters '\(description)' returned no picture")
        }
        return result
    }

    /// The file's bytes: `frame` encoded as one picture of `format`.
    private static func encoded(_ frame: Frame, as format: StillImageFormat) throws -> [UInt8] {
        let settings = VideoEncoderSettings(codec: format.encoder, width: frame.width, height: frame.height,
                                            pixelFormat: frame.pixelFormat, timeBase: Rational(1, 25),
                                            options: format.encoderOptions, threads: 1)
        let encoder = try Encoder(video: settings, globalHeader: false)
        frame.pts = 0
        // A fixed quantiser is read from each picture (as ffmpeg's -q:v sets it).
        if format == .jpeg { frame.pointer.pointee.quality = StillImageFormat.jpegQuantiser * FF_QP2LAMBDA }
        var bytes: [UInt8] = []
        for packet in try encoder.encode(frame) + encoder.encode(nil) { bytes += packet.data }
        guard !bytes.isEmpty else { throw MediaError(.writeFailed, detail: "the \(format.encoder) encoder made no picture") }
        return bytes
    }

    /// Writes `bytes` to a file with no name until they are all there, then names it `path`.
    private static func save(_ bytes: [UInt8], to path: String, overwrite: Bool) throws(MediaError) {
        let partial = try PartialFile(target: path, overwrite: overwrite)
        do throws(SystemError) {
            let descriptor = try SystemError.check("cannot create the picture") {
                open(partial.writePath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(0o644))
            }
            defer { close(descriptor) }
            var written = 0
            while written < bytes.count {
                written += try SystemError.check("cannot write the picture") {
                    bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
                }
            }
            try SystemError.check("cannot write the picture") { fsync(descriptor) }
        } catch {
            throw MediaError(.writeFailed, path: path, detail: error.description)
        }
        try partial.publish()
    }
}
