import CFFmpeg

/// The picture file formats a still is written in, chosen by the file name's extension:
/// PNG and TIFF (8-bit RGB, or 16-bit RGB for sources deeper than 8 bits) and JPEG (8-bit,
/// full range, quality 95 %).
public enum StillImageFormat: String, CaseIterable, Sendable, Codable {
    case png, tiff, jpeg

    /// The extensions that name each format, lower case.
    public var extensions: [String] {
        switch self {
        case .png: ["png"]
        case .tiff: ["tif", "tiff"]
        case .jpeg: ["jpg", "jpeg"]
        }
    }

    /// `.png, .tif/.tiff or .jpg/.jpeg`: the extensions, for messages.
    public static var choices: String {
        let names = allCases.map { $0.extensions.map { "." + $0 }.joined(separator: "/") }
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// The format `path`'s extension names (in any case). Throws `MediaError`
    /// (`.invalidArgument`) naming the path and the extensions there are.
    public init(path: String) throws(MediaError) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let dot = name.lastIndex(of: ".")
        let suffix = dot.map { String(name[name.index(after: $0)...]).lowercased() } ?? ""
        guard let format = Self.allCases.first(where: { $0.extensions.contains(suffix) }) else {
            let given = suffix.isEmpty ? "has no extension" : "'.\(suffix)' is not a still format"
            throw MediaError(.invalidArgument, path: path, detail: "\(given); use \(Self.choices)")
        }
        self = format
    }

    /// Bits per RGB component written for pictures of `sourceDepth` bits: 16 for PNG and TIFF
    /// of sources deeper than 8 bits, else 8.
    public func bitDepth(forSourceDepth sourceDepth: Int) -> Int {
        self != .jpeg && sourceDepth > 8 ? 16 : 8
    }

    /// FFmpeg's encoder for the format.
    var encoder: String {
        switch self {
        case .png: "png"
        case .tiff: "tiff"
        case .jpeg: "mjpeg"
        }
    }

    /// The pixel format the encoder is given at `bitDepth` (8 or 16).
    func pixelFormat(bitDepth: Int) -> PixelFormat {
        switch self {
        case .png: PixelFormat(bitDepth > 8 ? AV_PIX_FMT_RGB48BE : AV_PIX_FMT_RGB24)
        case .tiff: PixelFormat(bitDepth > 8 ? AV_PIX_FMT_RGB48LE : AV_PIX_FMT_RGB24)
        case .jpeg: PixelFormat(AV_PIX_FMT_YUVJ444P)
        }
    }

    /// Encoder options: PNG rows predicted by Paeth's filter, TIFF compressed with LZW, JPEG at
    /// a fixed quantiser of 2 (FFmpeg's `-q:v 2`, about 95 % quality), without subsampled colour.
    var encoderOptions: [String: String] {
        switch self {
        case .png: ["pred": "paeth"]
        case .tiff: ["compression_algo": "lzw"]
        case .jpeg: ["flags": "+qscale", "global_quality": "\(Self.jpegQuantiser * FF_QP2LAMBDA)"]
        }
    }

    /// JPEG's quantiser (FFmpeg's `-q:v`): 2 of 2–31, the finest FFmpeg's default limits allow.
    static let jpegQuantiser: Int32 = 2
}
