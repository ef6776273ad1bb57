import Foundation
import SlomoConcurrency
import SlomoCore
import SlomoMedia

/// The encoder-side decisions for one export: pixel format, colour, encoder options.
struct VideoEncoding {
    let settings: VideoExportSettings
    let pixelFormat: PixelFormat
    /// The colour tags of the output pictures.
    let color: ColorInfo
    /// True when HDR source pictures are tone-mapped to SDR BT.709.
    let toneMaps: Bool

    /// Decides for a source (the first clip's video). Throws when HDR would go into h264 and
    /// tone-mapping is refused or impossible.
    init(_ settings: VideoExportSettings, source: VideoInfo, path: String) throws {
        let hdr = source.isHDR
        let toneMaps = hdr && settings.codec == .h264
        if toneMaps {
            guard settings.toneMapping == .automatic else {
                throw ExportError(.unsupportedCodec, SettingIssue(.codec, nil, "is HDR (\(source.color.transfer ?? "HDR")) and "
                                  + "h264 output is SDR; use {codec} hevc or {codec} prores to keep HDR, or allow tone-mapping "
                                  + "({toneMapping} auto)", subject: path))
            }
            guard VideoExportSettings.canToneMap else {
                throw ExportError(.unsupportedCodec, SettingIssue(.codec, nil, "is HDR and h264 output is SDR, but this FFmpeg "
                                  + "build has no tone-mapper (zscale needs zimg); use {codec} hevc or {codec} prores to keep HDR",
                                  subject: path))
            }
        }
        self.init(settings: settings,
                  pixelFormat: Self.pixelFormat(settings, deep: (source.bitDepth ?? 8) > 8, source: PixelFormat(name: source.pixelFormat)),
                  color: toneMaps ? Self.bt709 : source.color, toneMaps: toneMaps)
    }

    /// For pictures a program draws itself (`MovieWriter`): 8-bit SDR, BT.709.
    init(drawn settings: VideoExportSettings) {
        self.init(settings: settings, pixelFormat: Self.pixelFormat(settings, deep: false, source: nil), color: Self.bt709,
                  toneMaps: false)
    }

    private init(settings: VideoExportSettings, pixelFormat: PixelFormat, color: ColorInfo, toneMaps: Bool) {
        self.settings = settings
        self.pixelFormat = pixelFormat
        self.color = color
        self.toneMaps = toneMaps
    }

    /// SDR video colour: BT.709, limited range.
    private static let bt709 = ColorInfo.named(primaries: "bt709", transfer: "bt709", matrix: "bt709", range: "tv")

    /// The pixel format the codec is fed: 10-bit for `deep` sources where the codec and profile
    /// allow it, the source's own (`source`, else yuv420p) for lossless FFV1.
    private static func pixelFormat(_ settings: VideoExportSettings, deep: Bool, source: PixelFormat?) -> PixelFormat {
        switch settings.codec {
        case .h264:
            return .yuv420p
        case .hevc:
            switch settings.profile {
            case "main": return .yuv420p
            case "main10": return .yuv420p10
            default: return deep ? .yuv420p10 : .yuv420p
            }
        case .prores:
            return (settings.profile ?? "hq").hasPrefix("4444") ? PixelFormat(name: "yuv444p10le")! : .yuv422p10
        case .ffv1:
            return source ?? .yuv420p
        }
    }

    /// Opens the encoder for pictures of `width`×`height` at `frameRate` and adds its stream to
    /// `muxer`, with the frame rate and, for HEVC outside Matroska, Apple's `hvc1` tag. Throws
    /// naming the codec when the encoder refuses to open or the container cannot hold it.
    func addStream(to muxer: Muxer, width: Int, height: Int, frameRate: Rational, hdr: HDRMetadata,
                   timeBase: Rational? = nil) throws -> sending (encoder: Encoder, stream: Int) {
        var encoderSettings = self.encoderSettings(width: width, height: height, frameRate: frameRate, hdr: hdr)
        if let timeBase { encoderSettings.timeBase = timeBase }
        let codec = settings.codec
        let encoder: Encoder
        do {
            encoder = try Encoder(video: encoderSettings, globalHeader: muxer.needsGlobalHeader)
        } catch {
            throw ExportError(.unsupportedCodec, SettingIssue(.codec, codec.rawValue, "\(codec.encoderName) would not open (\(error))"))
        }
        guard muxer.canStore(encoder) else { throw cannotStore(in: muxer) }
        let stream = try describe(try muxer.addStream(for: encoder), in: muxer, frameRate: frameRate)
        // The muxer copied the encoder's parameters and keeps no reference to it: the encoder
        // may go to the thread that encodes.
        return (disconnected(consume encoder), stream)
    }

    /// Adds a stream for the packets of stream `index` of `demuxer`, made with these settings
    /// (a chunked export's pieces, joined): the same checks and tags as an encoder's stream.
    func addStream(copying index: Int, of demuxer: Demuxer, to muxer: Muxer, frameRate: Rational) throws -> Int {
        guard muxer.canStore(codecOf: index, of: demuxer) else { throw cannotStore(in: muxer) }
        return try describe(try muxer.addStream(copying: index, of: demuxer), in: muxer, frameRate: frameRate)
    }

    /// The frame rate and, for HEVC outside Matroska, Apple's `hvc1` tag.
    private func describe(_ stream: Int, in muxer: Muxer, frameRate: Rational) throws -> Int {
        muxer.setFrameRate(frameRate, stream: stream)
        if settings.codec == .hevc && (muxer.path as NSString).pathExtension.lowercased() != "mkv" {
            muxer.setCodecTag("hvc1", stream: stream)
        }
        return stream
    }

    private func cannotStore(in muxer: Muxer) -> ExportError {
        let codec = settings.codec
        let fileExtension = (muxer.path as NSString).pathExtension.lowercased()
        return ExportError(.unsupportedContainer, "\(muxer.path): .\(fileExtension) cannot hold \(codec.rawValue) video; "
                           + (codec == .prores ? "use .mov" : codec == .ffv1 ? "use .mkv or .mov" : "use .mp4 or .mov"))
    }

    /// The encoder settings for pictures of `width`×`height` at `frameRate`.
    func encoderSettings(width: Int, height: Int, frameRate: Rational, hdr: HDRMetadata) -> VideoEncoderSettings {
        var options: [String: String] = [:]
        if let primaries = color.primaries { options["color_primaries"] = primaries }
        if let transfer = color.transfer { options["color_trc"] = transfer }
        if let matrix = color.matrix { options["colorspace"] = matrix }
        if let range = color.range { options["color_range"] = range }
        switch settings.codec {
        case .h264:
            options["preset"] = settings.preset ?? "medium"
            if settings.bitRate == nil { options["crf"] = Self.number(settings.crf ?? 20) }
            if let profile = settings.profile { options["profile"] = profile }
            // The lookahead in the encoding thread, not its own: the same stream bit for bit,
            // ≈ 30 MB less at 1080p with the medium preset (its buffer frames).
            options["x264-params"] = "sync-lookahead=0"
        case .hevc:
            options["preset"] = settings.preset ?? "medium"
            if settings.bitRate == nil { options["crf"] = Self.number(settings.crf ?? 24) }
            var params = ["log-level=error"]
            if !toneMaps {
                if let display = hdr.masteringDisplay, let master = Self.x265MasterDisplay(display) {
                    params.append("master-display=\(master)")
                }
                if let light = hdr.contentLight {
                    params.append("max-cll=\(light.maxContentLightLevel),\(light.maxFrameAverageLightLevel)")
                }
            }
            options["x265-params"] = params.joined(separator: ":")
        case .prores:
            let profiles = ["proxy": 0, "lt": 1, "standard": 2, "hq": 3, "4444": 4, "4444xq": 5]
            options["profile"] = String(profiles[settings.profile ?? "hq"] ?? 3)
        case .ffv1:
            options["level"] = "3"
        }
        return VideoEncoderSettings(codec: settings.codec.encoderName, width: width, height: height,
                                    pixelFormat: pixelFormat, timeBase: frameRate.reciprocal, frameRate: frameRate,
                                    sampleAspectRatio: Rational(1), bitRate: settings.bitRate, gopSize: settings.gop,
                                    options: options)
    }

    /// Gives `packet` one frame period as its duration when the encoder set none.
    static func lastOneFramePeriod(_ packet: Packet, frameRate: Rational) {
        guard packet.duration <= 0 else { return }
        packet.duration = (try? MediaTime(seconds: frameRate.reciprocal).ticks(in: packet.timeBase, rounding: .nearest)) ?? 1
    }

    /// x265's `G(x,y)B(x,y)R(x,y)WP(x,y)L(max,min)` in units of 0.00002 and 0.0001 nits.
    static func x265MasterDisplay(_ display: MasteringDisplay) -> String? {
        guard let primaries = display.primaries, primaries.count == 3, let white = display.whitePoint,
              let maxL = display.maxLuminance, let minL = display.minLuminance else { return nil }
        func xy(_ pair: [Double]) -> String { "(\(Int((pair[0] * 50000).rounded())),\(Int((pair[1] * 50000).rounded())))" }
        return "G\(xy(primaries[1]))B\(xy(primaries[2]))R\(xy(primaries[0]))WP\(xy(white))"
            + "L(\(Int((maxL * 10000).rounded())),\(Int((minL * 10000).rounded())))"
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
