import CFFmpeg
import SlomoCore

/// The packets of one stream that did not decode cleanly, counted as a decoder meets them:
/// rejected outright, or decoded by concealing errors (FFmpeg's error resilience patches the
/// broken part of a picture from its neighbours and flags the frame). It becomes one
/// `Damage` of kind `undecodable`: "video: 12 packets could not be decoded cleanly between
/// 2.10 s and 2.40 s (file damaged?)".
struct DecodeDamage {
    private(set) var packets = 0
    private var first: MediaTime?
    private var last: MediaTime?

    /// Counts one damaged packet or picture at `time` (nil when it has none).
    mutating func record(at time: MediaTime?) {
        packets += 1
        guard let time else { return }
        first = min(first ?? time, time)
        last = max(last ?? time, time)
    }

    /// Adds what another decoder of the same stream counted.
    mutating func add(_ other: DecodeDamage) {
        packets += other.packets
        for time in [other.first, other.last].compactMap({ $0 }) {
            first = min(first ?? time, time)
            last = max(last ?? time, time)
        }
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

    /// The damage of `stream` as a report, nil when every packet decoded cleanly.
    func damage(of stream: StreamInfo) -> Damage? {
        guard packets > 0 else { return nil }
        let origin = stream.startTime ?? .zero
        let range = first.map { first in
            TimeRange(start: first - origin, duration: max(.zero, (last ?? first) - first))
        }
        let place = range.map { range in
            range.duration == .zero ? " at \(range.start.formattedSeconds(fractionDigits: 2)) s"
                : " between \(range.start.formattedSeconds(fractionDigits: 2)) s and \(range.end.formattedSeconds(fractionDigits: 2)) s"
        } ?? ""
        let what = packets == 1 ? "1 packet" : "\(packets) packets"
        return Damage(kind: .undecodable, stream: stream.index, readableUntil: nil, between: range, packets: packets,
                      message: "\(stream.kind.rawValue): \(what) could not be decoded cleanly\(place) (file damaged?)")
    }
}
