/// What `MediaFile.inspect(verify: true)` decoded and its verdict, so that a clean file is
/// said to be clean with numbers ("all 2400 pictures and 469 audio packets decoded cleanly").
public struct Verification: Codable, Hashable, Sendable {
    /// Video pictures decoded.
    public var pictures: Int
    /// Audio packets decoded.
    public var audioPackets: Int
    /// Packets found damaged, of every kind (decoding, structure, truncation).
    public var damagedPackets: Int
    /// True when nothing was found damaged.
    public var clean: Bool
    /// One sentence for people.
    public var verdict: String

    /// The verdict on a file whose decoding gave `pictures` and `audioPackets`, with `damage` found.
    init(pictures: Int, audioPackets: Int, damage: [Damage]) {
        self.pictures = pictures
        self.audioPackets = audioPackets
        damagedPackets = damage.reduce(0) { $0 + $1.packets }
        let decoded = [pictures > 0 || audioPackets == 0 ? Self.count(pictures, "picture") : nil,
                       audioPackets > 0 ? Self.count(audioPackets, "audio packet") : nil].compactMap { $0 }
        let what = decoded.joined(separator: " and ")
        clean = damage.isEmpty
        verdict = clean
            ? "\(pictures + audioPackets == 1 ? "" : "all ")\(what) decoded cleanly"
            : "damaged: \(Self.count(damagedPackets, "packet")) (rows above); \(what) decoded"
    }

    private static func count(_ number: Int, _ noun: String) -> String { number == 1 ? "1 \(noun)" : "\(number) \(noun)s" }
}
