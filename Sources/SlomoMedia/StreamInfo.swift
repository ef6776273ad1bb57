import SlomoCore

/// One stream of a media file: what kind it is, its codec and timing, and the video or audio
/// facts that apply to it.
public struct StreamInfo: Codable, Hashable, Sendable {
    /// The kind of data a stream carries.
    public enum Kind: String, Codable, Sendable {
        case video, audio, subtitle, data, attachment, unknown
    }

    /// Index of the stream in its container.
    public var index: Int
    public var kind: Kind
    /// The codec, with its profile where the codec has profiles.
    public var codec: CodecInfo
    /// The time base the stream's timestamps count in.
    public var timeBase: Rational
    /// The first timestamp, when known.
    public var startTime: MediaTime?
    /// The stream's own duration, when the container declares it.
    public var duration: MediaTime?
    /// The number of frames the container declares (packets for audio), when it does.
    public var frameCount: Int?
    /// Bit rate in bits per second, when known.
    public var bitRate: Int?
    /// True for cover art stored as a one-picture video stream.
    public var isAttachedPicture: Bool
    /// Stream-level tags (language, handler name, …).
    public var metadata: [String: String]
    /// Picture facts, for video streams.
    public var video: VideoInfo?
    /// Sound facts, for audio streams.
    public var audio: AudioInfo?
    /// Measured frame intervals, for video streams, when the packets were scanned.
    public var frameTiming: FrameTiming?
}

/// A codec as FFmpeg names it.
public struct CodecInfo: Codable, Hashable, Sendable {
    /// Short name, e.g. `h264`, `hevc`, `aac`.
    public var name: String
    /// Descriptive name, e.g. `H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10`.
    public var longName: String
    /// Profile name, e.g. `High`, `Main 10`, `LC`.
    public var profile: String?
    /// The four-character code in the container (`avc1`, `hvc1`), when there is one.
    public var tag: String?
}

/// The facts about a video stream's pictures, timing and colour.
public struct VideoInfo: Codable, Hashable, Sendable {
    public var width: Int
    public var height: Int
    /// FFmpeg's pixel format name, e.g. `yuv420p10le`.
    public var pixelFormat: String
    /// Bits per component, e.g. 8 or 10.
    public var bitDepth: Int?
    /// Sample (pixel) aspect ratio, when the stream declares one.
    public var sampleAspectRatio: Rational?
    /// Rotation in degrees (0..<360) from the display matrix, as ffprobe reports it.
    public var rotation: Int
    /// The nominal frame rate (FFmpeg's `r_frame_rate`): the lowest rate all timestamps fit.
    public var nominalFrameRate: Rational?
    /// The average frame rate (frames / duration).
    public var averageFrameRate: Rational?
    /// True at 59.94 fps (60000/1001) or more.
    public var highFrameRate: Bool
    /// Colour description.
    public var color: ColorInfo
    /// High dynamic range signalling, when the stream is HDR.
    public var hdr: HDRInfo?
}

extension VideoInfo {
    private enum CodingKeys: String, CodingKey {
        case width, height, pixelFormat, bitDepth, sampleAspectRatio, rotation, nominalFrameRate, averageFrameRate,
             highFrameRate, color, hdr
    }

    /// Decodes what `encode(to:)` writes; a missing `color` is an untagged stream.
    public init(from decoder: any Swift.Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        width = try container.decode(Int.self, forKey: .width)
        height = try container.decode(Int.self, forKey: .height)
        pixelFormat = try container.decode(String.self, forKey: .pixelFormat)
        bitDepth = try container.decodeIfPresent(Int.self, forKey: .bitDepth)
        sampleAspectRatio = try container.decodeIfPresent(Rational.self, forKey: .sampleAspectRatio)
        rotation = try container.decode(Int.self, forKey: .rotation)
        nominalFrameRate = try container.decodeIfPresent(Rational.self, forKey: .nominalFrameRate)
        averageFrameRate = try container.decodeIfPresent(Rational.self, forKey: .averageFrameRate)
        highFrameRate = try container.decode(Bool.self, forKey: .highFrameRate)
        color = try container.decodeIfPresent(ColorInfo.self, forKey: .color) ?? ColorInfo()
        hdr = try container.decodeIfPresent(HDRInfo.self, forKey: .hdr)
    }

    /// Encodes every field, leaving out those that are unknown: `color` too when the stream
    /// tags no colour at all (as docs/inspect-json.md says), instead of an empty object.
    public func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(pixelFormat, forKey: .pixelFormat)
        try container.encodeIfPresent(bitDepth, forKey: .bitDepth)
        try container.encodeIfPresent(sampleAspectRatio, forKey: .sampleAspectRatio)
        try container.encode(rotation, forKey: .rotation)
        try container.encodeIfPresent(nominalFrameRate, forKey: .nominalFrameRate)
        try container.encodeIfPresent(averageFrameRate, forKey: .averageFrameRate)
        try container.encode(highFrameRate, forKey: .highFrameRate)
        if color != ColorInfo() { try container.encode(color, forKey: .color) }
        try container.encodeIfPresent(hdr, forKey: .hdr)
    }
}

/// Colour description of a video stream (FFmpeg's names: `bt709`, `bt2020`, `arib-std-b67`).
public struct ColorInfo: Codable, Hashable, Sendable {
    public var primaries: String?
    public var transfer: String?
    public var matrix: String?
    /// `tv` (limited) or `pc` (full).
    public var range: String?
}

/// How a stream signals high dynamic range, and its mastering metadata.
public struct HDRInfo: Codable, Hashable, Sendable {
    /// The HDR format.
    public enum Kind: String, Codable, Sendable {
        case hlg = "HLG"
        case pq = "PQ"
        case dolbyVision = "DolbyVision"
    }

    public var kind: Kind
    /// The Dolby Vision profile from the configuration record (e.g. 8), for Dolby Vision.
    public var dolbyVisionProfile: Int?
    /// The Dolby Vision level, for Dolby Vision.
    public var dolbyVisionLevel: Int?
    /// Mastering display colour volume (SMPTE ST 2086), when present.
    public var masteringDisplay: MasteringDisplay?
    /// Content light level (MaxCLL/MaxFALL), when present.
    public var contentLight: ContentLight?
}

/// SMPTE ST 2086 mastering display metadata: CIE 1931 xy chromaticities and luminance in nits.
public struct MasteringDisplay: Codable, Hashable, Sendable {
    /// Red, green and blue primaries as [x, y] pairs.
    public var primaries: [[Double]]?
    /// White point as [x, y].
    public var whitePoint: [Double]?
    public var minLuminance: Double?
    public var maxLuminance: Double?

    public init(primaries: [[Double]]?, whitePoint: [Double]?, minLuminance: Double?, maxLuminance: Double?) {
        self.primaries = primaries
        self.whitePoint = whitePoint
        self.minLuminance = minLuminance
        self.maxLuminance = maxLuminance
    }
}

/// Content light level metadata in nits.
public struct ContentLight: Codable, Hashable, Sendable {
    public var maxContentLightLevel: Int
    public var maxFrameAverageLightLevel: Int

    public init(maxContentLightLevel: Int, maxFrameAverageLightLevel: Int) {
        self.maxContentLightLevel = maxContentLightLevel
        self.maxFrameAverageLightLevel = maxFrameAverageLightLevel
    }
}

/// The facts about an audio stream.
public struct AudioInfo: Codable, Hashable, Sendable {
    public var sampleRate: Int
    public var channels: Int
    /// FFmpeg's channel layout description, e.g. `stereo`, `5.1(side)`.
    public var channelLayout: String
    /// FFmpeg's sample format name, e.g. `fltp`.
    public var sampleFormat: String
    /// Bits per sample the codec keeps (24 for 24-bit FLAC, which decodes to 32-bit integers),
    /// nil when the file does not say.
    public var bitsPerSample: Int? = nil
}
