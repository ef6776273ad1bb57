import Foundation
import SlomoCore
import SlomoMedia

extension MovieFileOutput {
    /// The muxer options of a recording: a fragmented movie (`Muxer.fragmentedMovieOptions`)
    /// whose tags are QuickTime metadata keys (`mdta`), so that any key survives, not only the
    /// dozen that have a classic `udta` atom.
    static let headerOptions: [String: String] = {
        var options = Muxer.fragmentedMovieOptions
        options["movflags", default: ""] += "+use_metadata_tags"
        return options
    }()

    /// The tags a recording starts with: `metadata` (the settings'), with `creation_time`
    /// (now) and `encoder` added unless they are among them.
    static func initialTags(from metadata: [String: String]) -> [String: String] {
        var tags = metadata
        if tags["creation_time"] == nil { tags["creation_time"] = MillisecondTimestamp.text() }
        if tags["encoder"] == nil { tags["encoder"] = "slomo capture" }
        return tags
    }

    /// The container tags of the recording: those of the settings, `creation_time`, `encoder`
    /// and every one added while recording.
    public var metadata: [String: String] { shared.withLock { $0.tags } }

    /// Adds or replaces a container tag while recording (AVCaptureMovieFileOutput's `metadata`).
    /// It is written into the file's header at the next fragment boundary, so even a recording
    /// cut off by a crash has it from then on, and it is in the finished file. Tags added
    /// together must fit the room the header keeps for them (`Settings.headerReserveBytes`).
    public func addMetadata(key: String, value: String) throws(CaptureError) {
        guard !key.isEmpty else { throw CaptureError(.invalidInput, "a tag needs a key") }
        let refusal: CaptureError? = shared.withLock { shared in
            guard !shared.isFinished else {
                return CaptureError(.outputProblem, "\(settings.path): the recording has finished; tags can no longer be added")
            }
            var added = shared.tags
            added[key] = value
            let growth = Self.tagBytes(added) - shared.headerTagBytes
            guard growth <= settings.headerReserveBytes - 8 else {
                return CaptureError(.invalidLimit, "\(settings.path): the tags added while recording need about \(growth) bytes, "
                                    + "more than the \(settings.headerReserveBytes) the header keeps for them (Settings.headerReserveBytes)")
            }
            shared.tags = added
            shared.tagsVersion += 1
            return nil
        }
        if let refusal { throw refusal }
    }

    /// A generous estimate of the bytes tags take in the header: an `mdta` key entry and an
    /// `ilst` item with its `data` box for each.
    static func tagBytes(_ tags: [String: String]) -> Int {
        tags.reduce(64) { $0 + 48 + $1.key.utf8.count + $1.value.utf8.count }
    }
}
