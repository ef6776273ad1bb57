import SlomoCore
import SlomoMedia

/// A video packet the decode stage has read but not yet sent: its time in the clip, its H.264
/// picture's reference facts (H.264 clips only), and what its decoder may skip once a GOP plan
/// has decided it.
struct ReadAheadPacket {
    let packet: Packet
    let time: MediaTime?
    let picture: H264PictureReferences?
    var plannedSkipping: Decoder.PictureSkipping?
}

/// The decode stage's plan for one H.264 GOP at a time (`H264SkipPlan`): read from its IDR
/// picture to the next, every picture's need known from the times around it, the reference B
/// pictures that no wanted picture leans on go undecoded. On the 720p240 bench clip at 1x into
/// 30 fps that halves the pictures decoded (the pyramid's middle B-frames were half of them).
enum GOPSkipPlanner {
    /// Packets and bytes a GOP may span to be planned; a longer one is decoded as before.
    static let maxPackets = 1024
    static let maxBytes = 64 << 20

    /// True while `ahead` (starting at an IDR picture) has not reached the next IDR picture or
    /// the stream's end, and stays within the limits.
    static func wantsMore(_ ahead: [ReadAheadPacket]) -> Bool {
        guard let first = ahead.first, first.plannedSkipping == nil, first.picture?.isInstantaneousRefresh == true,
              ahead.count < maxPackets else { return false }
        guard !ahead.dropFirst().contains(where: { $0.packet.isKeyframe }) else { return false }
        return ahead.reduce(0) { $0 + $1.packet.size } < maxBytes
    }

    /// Plans the GOP at the front of `ahead`, when it starts with an IDR picture, ends at the
    /// next keyframe (an IDR picture) or at the stream's end, and every picture's headers were
    /// read. `needed(time, known)` is the schedule's test, the picture's neighbours found among
    /// the `known` times: those of the packets read ahead and of the ones already `sent`.
    static func plan(_ ahead: inout [ReadAheadPacket], sent: [MediaTime], atEnd: Bool,
                     needed: (MediaTime, [MediaTime]) -> Bool) {
        guard let first = ahead.first, first.plannedSkipping == nil, first.picture?.isInstantaneousRefresh == true
        else { return }
        let end = ahead.dropFirst().firstIndex { $0.packet.isKeyframe } ?? (atEnd ? ahead.count : nil)
        guard let end, ahead[end...].first.map({ $0.picture?.isInstantaneousRefresh == true }) ?? true else { return }
        let gop = ahead[..<end]
        let pictures = gop.compactMap(\.picture)
        let times = gop.compactMap(\.time)
        guard pictures.count == gop.count, times.count == gop.count else { return }
        let known = sent + ahead.compactMap(\.time)
        let wanted = times.map { needed($0, known) }
        let skipped = H264SkipPlan.skippableReferences(in: pictures, wanted: wanted)
        for index in gop.indices {
            ahead[index].plannedSkipping = skipped.contains(index) ? .bidirectional
                : wanted[index] ? Decoder.PictureSkipping.none : .nonReference
        }
    }
}
