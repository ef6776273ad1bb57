import SlomoCore

/// Which source picture a composition shows, and from when: the one rule the player and the
/// constant-frame-rate export share (a still of the source reads the first half of it).
///
/// A picture is on screen from its own time until the next picture's. In the output, a
/// forward run shows it from where the time map puts that time; a reversed run plays the
/// source last first, so it shows a picture from where the map puts the end of its display.
/// A run that ends with a freeze holds the picture on screen at its end.
public enum PictureTiming {
    /// Of `pictures` in display order, the one on screen at source time `time`: the last that
    /// starts at or before it, else the first (nil when there are none).
    public static func onScreen<C: BidirectionalCollection>(at time: MediaTime, among pictures: C,
                                                            startingAt start: (C.Element) -> MediaTime) -> C.Index? {
        pictures.lastIndex { start($0) <= time } ?? (pictures.isEmpty ? nil : pictures.startIndex)
    }

    /// The output time from which `run` of `map` shows the picture displayed over `display`
    /// (source times): where the map puts its start (or the run's, for a picture that began
    /// before the run), or, in a reversed run, where it puts the end of its display (or the
    /// run's start).
    public static func outputTime(showing display: Range<MediaTime>, in run: TimeMap.Run, of map: TimeMap) -> MediaTime {
        guard run.reversed else { return map.outputTime(at: max(display.lowerBound, run.source.start)) }
        let segment = map.segments[map.segmentIndex(containingOutput: run.output.start)]
        return max(segment.outputTime(at: display.upperBound), run.output.start)
    }
}
