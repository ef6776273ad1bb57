/// Checks a video stream's packets without decoding them, at the speed of a copy: the coded
/// data's own framing, by the rules of its codec (`CodedFraming`: H.264 and HEVC NAL units that
/// tile each packet and headers that parse, Motion JPEG segments from start to end marker,
/// ProRes frame and picture sizes that add up), and presentation times that no two packets
/// share (only a damaged index gives two pictures one time). What passthrough always does;
/// decoding (`DecodeCheck`) finds more, such as a flipped byte inside a picture's data.
///
/// ```swift
/// let check = StructureCheck(demuxer: demuxer, stream: video.index)
/// while let packet = try demuxer.read() { check.check(packet) }
/// for damage in check.finish() { print(damage) }   // video: 2 packets are malformed at 3.00 s (a NAL unit …)
/// ```
public final class StructureCheck {
    private var framing: (any CodedFraming)?
    private let info: StreamInfo
    private var malformed = DecodeDamage()
    /// What the first malformed packet broke.
    private var firstProblem: String?
    private var presentationTimes: Set<Int64> = []
    private var sharedTimes = DecodeDamage()

    /// A check of stream `index` of `demuxer`'s file.
    public init(demuxer: Demuxer, stream index: Int) {
        info = demuxer.file.streams[index]
        framing = demuxer.extradata(of: index).withUnsafeBytes {
            CodedFramings.framing(codec: info.codec.name, extradata: $0, video: info.video)
        }
    }

    /// The index of the stream it checks.
    public var stream: Int { info.index }

    /// True when slomo knows its codec's framing rules (h264, hevc, mjpeg, prores); for other
    /// codecs only the presentation times are checked.
    public var checksFraming: Bool { framing != nil }

    /// Checks `packet` (of the checked stream, with its timestamps as read).
    public func check(_ packet: Packet) {
        if let pts = packet.pts, !presentationTimes.insert(pts).inserted {
            sharedTimes.record(at: packet.presentationTime)
        }
        guard let problem = framing?.problem(in: packet.data) else { return }
        malformed.record(at: packet.presentationTime)
        if firstProblem == nil { firstProblem = problem }
    }

    /// What was found: malformed packets, packets sharing a presentation time; empty when the
    /// stream kept every rule.
    public func finish() -> [Damage] {
        let single = malformed.packets == 1, sharing = sharedTimes.packets == 1
        return [malformed.damage(of: info, finding: single ? "is malformed" : "are malformed",
                                 cause: "\(firstProblem ?? ""); file damaged?"),
                sharedTimes.damage(of: info, kind: .structure,
                                   finding: sharing ? "has the presentation time of another" : "have the presentation times of others",
                                   cause: "index damaged?")].compactMap { $0 }
    }
}
