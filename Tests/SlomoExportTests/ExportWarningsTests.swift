import Foundation
@testable import SlomoExport
import Testing

/// An export's warnings: each message once, in the order first met; a fallback met at many
/// places (a pair the flow engine failed on) is one line with its count and first place, also
/// when the export's threads report it at once.
struct ExportWarningsTests {
    @Test func aTalliedFallbackIsOneLineWithHowOftenAndWhereFirst() {
        let warnings = ExportWarnings()
        warnings.add("interpolate: blending instead, too small")
        warnings.tally("interpolate: optical flow failed (x); the source picture is shown as is", at: "source 1.5 s")
        warnings.add("interpolate: blending instead, too small")
        warnings.tally("audio: resampled", at: "segment 2")
        DispatchQueue.concurrentPerform(iterations: 99) { number in
            warnings.tally("interpolate: optical flow failed (x); the source picture is shown as is", at: "source \(number) s")
        }
        #expect(warnings.all == [
            "interpolate: blending instead, too small",
            "interpolate: optical flow failed (x); the source picture is shown as is at 100 places, first at source 1.5 s",
            "audio: resampled at segment 2",
        ])
    }
}
