import CFFmpeg

/// A channel layout by FFmpeg's name (`mono`, `stereo`, `5.1(side)`) and channel count, or
/// just a channel count when the source does not say which channels they are (WAV often).
public struct ChannelLayout: Hashable, Sendable, CustomStringConvertible {
    /// FFmpeg's description, which `av_channel_layout_from_string` reads back.
    public let name: String
    public let channelCount: Int
    /// True when only the count is known (FFmpeg's `AV_CHANNEL_ORDER_UNSPEC`).
    public let isUnspecified: Bool

    /// FFmpeg's default layout for a channel count (1 mono, 2 stereo, 6 5.1, …).
    public init(channelCount: Int) {
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, Int32(channelCount))
        self.init(layout)
        av_channel_layout_uninit(&layout)
    }

    /// A layout by name; nil when FFmpeg does not know it.
    public init?(name: String) {
        var layout = AVChannelLayout()
        guard av_channel_layout_from_string(&layout, name) == 0 else { return nil }
        self.init(layout)
        av_channel_layout_uninit(&layout)
    }

    /// The speakers of a WAV extensible header's `dwChannelMask` (FFmpeg's bits are the same).
    init(mask: UInt64) {
        var layout = AVChannelLayout()
        av_channel_layout_from_mask(&layout, mask)
        self.init(layout)
        av_channel_layout_uninit(&layout)
    }

    /// `count` channels with no say which they are (`AV_CHANNEL_ORDER_UNSPEC`).
    init(unspecifiedCount count: Int) {
        var layout = AVChannelLayout()
        layout.order = AV_CHANNEL_ORDER_UNSPEC
        layout.nb_channels = Int32(count)
        self.init(layout)
    }

    init(_ layout: AVChannelLayout) {
        var copy = layout
        var text = [CChar](repeating: 0, count: 128)
        av_channel_layout_describe(&copy, &text, text.count)
        name = String(decoding: text.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        channelCount = Int(layout.nb_channels)
        isUnspecified = layout.order == AV_CHANNEL_ORDER_UNSPEC
    }

    /// This layout, or FFmpeg's default layout for the count when only the count is known:
    /// what an encoder should be given.
    public var specified: ChannelLayout { isUnspecified ? ChannelLayout(channelCount: channelCount) : self }

    public static let mono = ChannelLayout(channelCount: 1)
    public static let stereo = ChannelLayout(channelCount: 2)

    /// The speakers as a WAV extensible header's `dwChannelMask` (FFmpeg's bits are the
    /// same); 0 when only the count is known.
    var speakerMask: UInt64 {
        withAVLayout { $0.pointee.order == AV_CHANNEL_ORDER_NATIVE ? $0.pointee.u.mask : 0 }
    }

    /// Runs `body` with the layout as an `AVChannelLayout` (freed afterwards).
    func withAVLayout<R>(_ body: (UnsafeMutablePointer<AVChannelLayout>) throws -> R) rethrows -> R {
        var layout = AVChannelLayout()
        if isUnspecified {
            layout.order = AV_CHANNEL_ORDER_UNSPEC
            layout.nb_channels = Int32(channelCount)
        } else if av_channel_layout_from_string(&layout, name) != 0 {
            av_channel_layout_default(&layout, Int32(channelCount))
        }
        defer { av_channel_layout_uninit(&layout) }
        return try body(&layout)
    }

    public var description: String { name }
}

/// Sample rate, channel layout and sample format of audio frames.
public struct AudioFormat: Hashable, Sendable, CustomStringConvertible {
    public var sampleRate: Int
    public var layout: ChannelLayout
    public var sampleFormat: SampleFormat

    public init(sampleRate: Int, layout: ChannelLayout, sampleFormat: SampleFormat = .floatPlanar) {
        self.sampleRate = sampleRate
        self.layout = layout
        self.sampleFormat = sampleFormat
    }

    public var channelCount: Int { layout.channelCount }

    public var description: String { "\(sampleRate) Hz \(layout) \(sampleFormat)" }
}

extension Frame {
    /// The audio format of an audio frame.
    public var audioFormat: AudioFormat {
        AudioFormat(sampleRate: sampleRate, layout: ChannelLayout(pointer.pointee.ch_layout), sampleFormat: sampleFormat)
    }
}
