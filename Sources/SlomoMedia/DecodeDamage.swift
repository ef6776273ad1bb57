import CFFmpeg
import SlomoCore

/// The packets of one stream that did not decode cleanly, counted as a decoder meets them:
/// rejected outright, or decoded by concealing errors (FFmpeg's error resilience patches the
/// broken part of a picture from its neighbours and flags the frame); or, found without
/// decoding, packets whose coded data is malformed (`StructureCheck`). It becomes one
/// `Damage` of kind `undecodable`: "video: 12 packets could not be decoded cleanly between
/// 2.10 s and 2.40 s (file damaged?)".
struct DecodeDamage {
    /// The times of the damaged packets (a packet met twice, rejected and logged about, counts
    /// once), and how many had no time.
    private var times: Set<MediaTime> = []
    private var untimed = 0

    var packets: Int { times.count + untimed }

    /// Counts one damaged packet or picture at `time` (nil when it has none).
    mutating func record(at time: MediaTime?) {
        if let time { times.insert(time) } else { untimed += 1 }
    }

    /// Adds what another decoder of the same stream counted.
    mutating func add(_ other: DecodeDamage) {
        times.formUnion(other.times)
        untimed += other.untimed
    }

    /// The decoder's flags that mean the data was broken. A missing reference or a frame
    /// marked corrupt alone is left out: both are normal for the leading pictures after a seek
    /// into an open GOP.
    private static let brokenData = FF_DECODE_ERROR_INVALID_BITSTREAM | FF_DECODE_ERROR_CONCEALMENT_ACTIVE
        | FF_DECODE_ERROR_DECODE_SLICES

    /// Counts `frame` when its decoder flagged its data as broken.
    mutating func inspect(_ frame: Frame) {
        if frame.pointer.pointee.decode_error_flags & Self.brokenData != 0 { record(at: frame.presentationTime) }
    }

    /// The damage of `stream` as a report, nil when every packet decoded cleanly. `finding`
    /// says what was wrong with the packets, `cause` what the reader should suspect.
    func damage(of stream: StreamInfo, kind: Damage.Kind = .undecodable, finding: String = "could not be decoded cleanly",
                cause: String = "file damaged?") -> Damage? {
        guard packets > 0 else { return nil }
        let origin = stream.startTime ?? .zero
        let range = times.min().map { first in
            TimeRange(start: first - origin, duration: max(.zero, (times.max() ?? first) - first))
        }
        let place = range.map { range in
            range.duration == .zero ? " at \(range.start.formattedSeconds(fractionDigits: 2)) s"
                : " between \(range.start.formattedSeconds(fractionDigits: 2)) s and \(range.end.formattedSeconds(fractionDigits: 2)) s"
        } ?? ""
        let what = packets == 1 ? "1 packet" : "\(packets) packets"
        return Damage(kind: kind, stream: stream.index, readableUntil: nil, between: range, packets: packets,
                      message: "\(stream.kind.rawValue): \(what) \(finding)\(place) (\(cause))")
    }
}
