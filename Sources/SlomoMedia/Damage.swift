import SlomoCore

/// Something wrong with a media file that slomo can still read, said with where it is and
/// what is lost: `video ends at 3.67 s of 6.00 s, 279 of 600 packets missing, the last one cut
/// (file truncated?)`. Commands report it (text and JSON) and `--strict` refuses the file.
public struct Damage: Codable, Hashable, Sendable, CustomStringConvertible {
    /// What kind of damage.
    public enum Kind: String, Codable, Hashable, Sendable {
        /// The file ends before the data its index declares: packets missing or cut.
        case truncated
        /// The container's structure is broken though FFmpeg reads it: a box that claims more
        /// than its parent holds, stray bytes, a header overwritten.
        case structure
        /// Packets the decoder rejected, or decoded only by concealing errors (a picture
        /// patched from its neighbours): the media data itself is damaged.
        case undecodable
    }

    /// What kind of damage.
    public var kind: Kind
    /// The stream it affects; -1 for the whole file.
    public var stream: Int
    /// Where the stream's readable part ends (for `truncated`), in the stream's time.
    public var readableUntil: MediaTime?
    /// Where the damaged packets lie (for `undecodable`), in seconds from the stream's start.
    public var between: TimeRange?
    /// How many packets are affected.
    public var packets: Int
    /// One sentence for people.
    public var message: String

    /// The message.
    public var description: String { message }
}
