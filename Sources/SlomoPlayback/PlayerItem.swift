import SlomoCore
import SlomoMedia

/// What a `Player` plays: a composition (one file with sections, or several clips) with its
/// time map and what its files hold. Output time is the composition's own time at rate 1;
/// the player's `rate` plays it faster or slower on top.
public struct PlayerItem: Sendable {
    /// The composition played.
    public let composition: Composition
    /// Its time map: source time of each clip to output time.
    public let map: CompositionMap
    /// Each clip's file, in clip order.
    public let files: [MediaFile]

    /// The item of `composition`; throws the time model's errors and those of opening its files.
    public init(_ composition: Composition) throws {
        self.composition = composition
        map = try CompositionMap(composition)
        // Each file once: a composition played backwards has a clip for every stretch of its files.
        var opened: [String: MediaFile] = [:]
        files = try composition.clips.map { clip in
            if let file = opened[clip.source] { return file }
            let file = try MediaFile(path: clip.source)
            opened[clip.source] = file
            return file
        }
    }

    /// A whole file played as it is.
    public init(path: String) throws {
        try self.init(Composition(retiming: try MediaFile(path: path), sections: []))
    }

    /// The output duration at rate 1.
    public var duration: MediaTime { map.outputDuration }
    /// True when some clip has an audio stream.
    public var hasAudio: Bool { files.contains { !$0.audioStreams.isEmpty } }
    /// The first clip's picture (size, rotation, colour), nil without video.
    public var video: VideoInfo? { files.first?.videoStream?.video }

    /// The first audible stream's sample rate and channel count, nil without audio.
    var audioFormat: (sampleRate: Int, channels: Int)? {
        files.lazy.compactMap { $0.audioStreams.first?.audio }.first.map { ($0.sampleRate, $0.channels) }
    }

    /// The slowest and fastest rates of the item's segments (holds have none), for the range
    /// of player rates an audio algorithm can follow.
    var segmentRates: ClosedRange<Double> {
        let rates = map.entries.flatMap(\.map.segments).flatMap { segment in
            [segment.shape.startStretch, segment.shape.endStretch].compactMap { $0?.reciprocal.doubleValue }
        }
        return (rates.min() ?? 1)...(rates.max() ?? 1)
    }
}
