/// The time map of a whole `Composition`: each clip's `TimeMap`, placed one after the other
/// in output time.
public struct CompositionMap: Hashable, Sendable {
    /// One clip and where it plays.
    public struct Entry: Hashable, Sendable {
        /// The clip.
        public let clip: Clip
        /// Where the clip starts on the edit timeline.
        public let editStart: MediaTime
        /// The clip's map from its source time to composition output time.
        public let map: TimeMap
    }

    /// The clips in order, with their maps.
    public let entries: [Entry]
    /// The total output duration.
    public let outputDuration: MediaTime

    /// The map of `composition`; throws the errors of `TimeMap` for each clip, and `.emptyRange`
    /// for a composition without clips.
    public init(_ composition: Composition) throws {
        guard !composition.clips.isEmpty else {
            throw TimeModelError(.emptyRange, "the composition has no clips")
        }
        var entries: [Entry] = []
        var editStart = MediaTime.zero, outputStart = MediaTime.zero
        for (index, clip) in composition.clips.enumerated() {
            let map: TimeMap
            do {
                map = try clip.timeMap(outputStart: outputStart)
            } catch let error as TimeModelError where composition.clips.count > 1 {
                throw error.about("clip \(index) (\(clip.source))")
            }
            entries.append(Entry(clip: clip, editStart: editStart, map: map))
            editStart = try editStart.adding(clip.range.duration)
            outputStart = map.output.end
        }
        self.entries = entries
        self.outputDuration = outputStart
    }

    /// The output time at `editTime` on the edit timeline; outside the timeline it
    /// extrapolates the first or last clip's map.
    public func outputTime(atEdit editTime: MediaTime) -> MediaTime {
        let entry = entries.last { $0.editStart <= editTime } ?? entries[0]
        return entry.map.outputTime(at: entry.clip.range.start + (editTime - entry.editStart))
    }

    /// The clip index and its source time that play at `outputTime`.
    public func source(atOutput outputTime: MediaTime) -> (clip: Int, time: MediaTime) {
        let index = entries.lastIndex { $0.map.outputStart <= outputTime } ?? 0
        return (index, entries[index].map.sourceTime(at: outputTime))
    }
}
