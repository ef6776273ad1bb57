import CFFmpeg
import SlomoCore

/// Which of the error messages a decoder logs (`DecoderErrorLog`) mean damage, and when: each
/// new error is taken as damage in the packet or picture at hand, except errors about the
/// leading pictures of where decoding began (they lean on packets it never saw), and errors
/// about missing references in its first GOP, unless decoding began at a picture after which
/// none can be missing (`RandomAccessPoint`). After a seek into an open GOP such errors are
/// normal; once a second keyframe has been decoded, they are not.
struct DecoderErrorAttribution {
    private let token: UInt
    private var seen = DecoderErrorLog.Count()
    private let randomAccess: RandomAccessPoint
    /// The time of the first packet since decoding began or restarted.
    private var runStart: MediaTime?
    private var keyframes = 0
    private var referencesComplete = false

    /// Tags `context` (a decoder of `parameters`) for counting.
    init(context: UnsafeMutablePointer<AVCodecContext>, parameters: UnsafePointer<AVCodecParameters>) {
        token = DecoderErrorLog.register(context)
        randomAccess = RandomAccessPoint(codec: parameters.pointee.codec_id, extradata: UnsafeRawBufferPointer(
            start: parameters.pointee.extradata, count: Int(parameters.pointee.extradata_size)))
    }

    /// Stops counting (the decoder is freed).
    func forget() { DecoderErrorLog.forget(token) }

    /// Notes a packet about to be sent.
    mutating func sending(_ packet: Packet) {
        if runStart == nil { runStart = packet.presentationTime }
        guard packet.isKeyframe else { return }
        keyframes += 1
        referencesComplete = referencesComplete || keyframes >= 2 || randomAccess.isClean(packet.data)
    }

    /// Whether errors logged since the last call mean damage in the packet or picture at `time`.
    mutating func newDamage(at time: MediaTime?) -> Bool {
        let logged = DecoderErrorLog.count(token)
        guard logged != seen else { return false }
        let counts = logged.others > seen.others || referencesComplete
        seen = logged
        if let time, let runStart, time < runStart { return false }
        return counts
    }

    /// Decoding starts again elsewhere (after a seek).
    mutating func restart() {
        runStart = nil
        keyframes = 0
        referencesComplete = false
    }
}
