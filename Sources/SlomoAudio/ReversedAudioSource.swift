/// A window of a track read backwards: frame `m` of this source is frame
/// `mirror − m` of the track, so a reversed section `[start, end)` read through
/// `mirror = start + end − 1` covers the same frame numbers, last first. The pre-roll before
/// the section is the sound after its end, reversed; what follows it is the sound before its start.
///
/// The window is taken once (a snapshot, so the track may go on being read forwards); frames
/// outside it read as silence.
final class ReversedAudioSource: AudioSampleSource {
    private let window: any AudioSampleSource
    private let mirror: Int
    let channelCount: Int

    /// Frames `frames` (in this source's numbering) of `track` mirrored through `mirror`.
    init(_ track: any AudioSampleSource, mirror: Int, frames: Range<Int>) throws {
        let first = mirror - (frames.upperBound - 1), last = mirror - frames.lowerBound
        window = try track.snapshot(of: first ..< last + 1)
        self.mirror = mirror
        channelCount = track.channelCount
    }

    func read(from start: Int, count: Int) throws -> AudioBuffer {
        let forwards = try window.read(from: mirror - (start + count - 1), count: count)
        return AudioBuffer(planar: forwards.channels.map { Array($0.reversed()) })
    }

    /// This source itself: its window never changes.
    func snapshot(of range: Range<Int>) throws -> any AudioSampleSource { self }
}
