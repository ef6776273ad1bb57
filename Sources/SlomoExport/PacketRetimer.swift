import SlomoCore
import SlomoMedia

/// Rewrites the timestamps of copied packets through the time map: PTS, DTS and duration
/// each go through the same strictly increasing function, computed from the map for every
/// packet (never accumulated), into an output time base fine enough to be exact.
struct PacketRetimer {
    let map: TimeMap
    /// Source time of the input stream's tick 0 is `-origin`: source time = ticks·tb − origin.
    let origin: MediaTime
    let outputTimeBase: Rational
    /// Packets whose DTS had to be nudged to stay strictly increasing (0 when the base is
    /// exact; ramps rounded to the microsecond could in theory need it).
    private(set) var nudgedPackets = 0
    private var lastDTS: Int64?
    /// Whether any segment plays backwards (else no packet needs its segment looked up).
    private let reverses: Bool

    init(map: TimeMap, origin: MediaTime, outputTimeBase: Rational) {
        self.map = map
        self.origin = origin
        self.outputTimeBase = outputTimeBase
        reverses = map.segments.contains(where: \.isReversed)
    }

    /// The output time of an input timestamp.
    func outputTime(ticks: Int64, timeBase: Rational) -> MediaTime {
        map.outputTime(at: MediaTime(ticks: ticks, timeBase: timeBase) - origin)
    }

    /// The output ticks of an input timestamp.
    func outputTicks(_ ticks: Int64, timeBase: Rational) throws -> Int64 {
        try outputTime(ticks: ticks, timeBase: timeBase).ticks(in: outputTimeBase, rounding: .nearest)
    }

    /// Rewrites the packet's timestamps into `outputTimeBase`.
    mutating func retime(_ packet: Packet) throws {
        if reverses, try retimeReversed(packet) { return }
        let input = packet.timeBase
        let pts = try packet.pts.map { try outputTicks($0, timeBase: input) }
        var dts = try packet.dts.map { try outputTicks($0, timeBase: input) }
        if let decoding = dts { dts = rising(decoding, notAfter: pts) }
        var duration: Int64 = 0
        if packet.duration > 0, let start = packet.pts ?? packet.dts {
            let end = try outputTicks(start + packet.duration, timeBase: input)
            duration = end - (try outputTicks(start, timeBase: input))
        }
        packet.timeBase = outputTimeBase
        packet.pts = pts
        packet.dts = dts
        packet.duration = duration
    }

    /// A picture of a reversed section (intra-only, so decoded when shown) is shown from where
    /// its end maps to, for its duration over the section's speed: its own display, backwards.
    /// False for a packet outside reversed sections.
    private mutating func retimeReversed(_ packet: Packet) throws -> Bool {
        let input = packet.timeBase
        guard let pts = packet.pts else { return false }
        let time = MediaTime(ticks: pts, timeBase: input) - origin
        let segment = map.segments[map.segmentIndex(containingSource: time)]
        guard segment.isReversed, segment.source.contains(time) else { return false }
        let end = MediaTime(ticks: pts + packet.duration, timeBase: input) - origin
        let shown = try segment.outputTime(at: end).ticks(in: outputTimeBase, rounding: .nearest)
        let until = try segment.outputTime(at: time).ticks(in: outputTimeBase, rounding: .nearest)
        let decoding = rising(shown, notAfter: nil)
        packet.timeBase = outputTimeBase
        packet.pts = max(shown, decoding)
        packet.dts = decoding
        packet.duration = until - shown
        return true
    }

    /// `decoding`, moved just past the last DTS when it is not after it (counted), and no later
    /// than `pts`; remembered as the last DTS.
    private mutating func rising(_ decoding: Int64, notAfter pts: Int64?) -> Int64 {
        var value = decoding
        if let lastDTS, value <= lastDTS {
            value = lastDTS + 1
            nudgedPackets += 1
        }
        if let pts, value > pts { value = pts }
        lastDTS = value
        return value
    }
}
