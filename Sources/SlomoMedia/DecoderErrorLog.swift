import CFFmpeg
import Glibc
import Synchronization

/// The error-level messages FFmpeg's decoders log ("error dc", "cu_qp_delta -109 is outside
/// the valid range", "Could not find ref with POC 0"), counted per decoder: many decoders say
/// they met broken data only there, neither rejecting the packet nor flagging the picture.
/// A decoder's context is tagged with a token in its `opaque` field (frame threads copy it to
/// their own contexts), and FFmpeg's log callback counts each message against its token.
///
/// Messages about references the decoder never saw are counted apart: after a seek into an
/// open GOP they are normal ("mmco: unref short failure" is the best known), and only the
/// decoder knows whether it has decoded far enough since to take them as damage.
enum DecoderErrorLog {
    /// The error messages one decoder logged.
    struct Count: Equatable {
        /// About a missing reference picture.
        var references = 0
        /// Any other.
        var others = 0
    }

    /// The start of FFmpeg 5.1's error messages about missing references (h264_refs.c,
    /// h264_direct.c, hevc_refs.c).
    private static let referenceMessages = ["mmco: unref short failure", "mmco: unref long failure",
                                            "reference picture missing during reorder", "Missing reference picture",
                                            "co located POCs unavailable", "Could not find ref with POC"]

    private static let counts = Mutex<[UInt: Count]>([:])
    private static let lastToken = Atomic<UInt>(0)

    /// Tags `context` so that the errors it logs are counted; returns the token to read and
    /// forget the count by.
    static func register(_ context: UnsafeMutablePointer<AVCodecContext>) -> UInt {
        FFmpegLog.install()
        let token = lastToken.add(1, ordering: .relaxed).newValue
        counts.withLock { $0[token] = Count() }
        context.pointee.opaque = UnsafeMutableRawPointer(bitPattern: token)
        return token
    }

    /// Stops counting for `token` (its decoder is freed).
    static func forget(_ token: UInt) {
        _ = counts.withLock { $0.removeValue(forKey: token) }
    }

    /// The error messages logged so far by the decoder tagged `token`.
    static func count(_ token: UInt) -> Count { counts.withLock { $0[token] ?? Count() } }

    /// Counts a message (its `format`) at `level` logged with `context` (FFmpeg's `avcl`), when
    /// it is an error from a tagged decoder. Called by the log callback, on any thread.
    static func note(context: UnsafeMutableRawPointer?, level: Int32, format: UnsafePointer<CChar>) {
        guard level <= FFmpegLog.Level.error.rawValue, let context,
              context.assumingMemoryBound(to: UnsafePointer<AVClass>?.self).pointee == avcodec_get_class(),
              let opaque = context.assumingMemoryBound(to: AVCodecContext.self).pointee.opaque else { return }
        let token = UInt(bitPattern: opaque)
        let aboutReferences = referenceMessages.contains { strncmp(format, $0, strlen($0)) == 0 }
        counts.withLock { counts in
            guard var count = counts[token] else { return }
            if aboutReferences { count.references += 1 } else { count.others += 1 }
            counts[token] = count
        }
    }
}
