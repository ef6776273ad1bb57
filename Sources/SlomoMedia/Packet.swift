import CFFmpeg
import SlomoConcurrency
import SlomoCore

/// A compressed packet that owns its `AVPacket` and frees it exactly once.
///
/// Timestamps are in the time base of the stream it came from (`timeBase`); `nil` stands for
/// FFmpeg's `AV_NOPTS_VALUE`. Packets are moved between stages, never shared between threads.
public final class Packet {
    let pointer: UnsafeMutablePointer<AVPacket>
    private let allocationScope: LiveObjects.Counters?

    /// The time base the timestamps are counted in.
    public var timeBase: Rational

    /// An empty packet, to be filled by a demuxer or an encoder.
    public init(timeBase: Rational = Rational(1, 1)) {
        guard let packet = av_packet_alloc() else { fatalError("av_packet_alloc: out of memory") }
        pointer = packet
        self.timeBase = timeBase
        allocationScope = LiveObjects.allocated(.packet)
    }

    /// A new reference to the same payload (no copy of the bytes: the two share a
    /// reference-counted buffer), with the same timestamps. The copy is the caller's alone
    /// (`disconnected`), so it may go to another thread while this one stays.
    public func clone() throws(FFmpegError) -> sending Packet {
        let copy = Packet(timeBase: timeBase)
        try check(av_packet_ref(copy.pointer, pointer), "reference a packet")
        return disconnected(consume copy)
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
        LiveObjects.freed(.packet, scope: allocationScope)
    }

    /// Index of the stream in its container.
    public var streamIndex: Int {
        get { Int(pointer.pointee.stream_index) }
        set { pointer.pointee.stream_index = Int32(newValue) }
    }

    /// Presentation timestamp in `timeBase` ticks.
    public var pts: Int64? {
        get { Packet.optional(pointer.pointee.pts) }
        set { pointer.pointee.pts = newValue ?? slomo_nopts_value() }
    }

    /// Decoding timestamp in `timeBase` ticks.
    public var dts: Int64? {
        get { Packet.optional(pointer.pointee.dts) }
        set { pointer.pointee.dts = newValue ?? slomo_nopts_value() }
    }

    /// Duration in `timeBase` ticks (0 when unknown).
    public var duration: Int64 {
        get { pointer.pointee.duration }
        set { pointer.pointee.duration = newValue }
    }

    /// True for a packet that starts a decodable sequence (keyframe).
    public var isKeyframe: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }

    /// True for a packet the demuxer marked as corrupt.
    public var isCorrupt: Bool { pointer.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 }

    /// Payload size in bytes.
    public var size: Int { Int(pointer.pointee.size) }

    /// The payload bytes, valid while the packet lives.
    public var data: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: pointer.pointee.data, count: size)
    }

    /// The presentation time as an exact `MediaTime`.
    public var presentationTime: MediaTime? { pts.map { MediaTime(ticks: $0, timeBase: timeBase) } }

    /// The decoding time as an exact `MediaTime`.
    public var decodingTime: MediaTime? { dts.map { MediaTime(ticks: $0, timeBase: timeBase) } }

    /// Converts every timestamp to another time base (FFmpeg's rounding: nearest, ties away).
    public func rescale(to newTimeBase: Rational) {
        av_packet_rescale_ts(pointer, timeBase.avRational, newTimeBase.avRational)
        timeBase = newTimeBase
    }

    static func optional(_ value: Int64) -> Int64? { value == slomo_nopts_value() ? nil : value }
}

extension LiveObjects.Kind {
    /// `Packet`s, counted from allocation to `deinit`.
    public static let packet = LiveObjects.Kind(slot: 0)
}

extension LiveObjects.Counters {
    /// Packets allocated and not yet freed.
    public var packets: Int { live(.packet) }
    /// Packets allocated in all (freed or not): proof that the work was counted.
    public var allocatedPackets: Int { allocated(.packet) }
}
