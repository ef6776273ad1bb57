import SlomoConcurrency
import SlomoCore
import SlomoMedia

/// Finds the moments of a clip worth slowing, so that nobody scrubs through it: peaks of local
/// motion (the camera's pan or shake taken out, cuts never counted as action) and sharp sound
/// onsets, tied to the source frame they happen in and ranked. The picture and the sound are
/// analysed side by side, the picture at a few hundred pixels wide.
///
/// ```swift
/// let analysis = try MomentDetector().analyse(path: "take.mov")
/// if let best = analysis.moments.first { print(best.time, best.foundBy, best.section) }
/// ```
public struct MomentDetector: Sendable {
    /// How much of the clip a moment's suggested section takes before and after it.
    public var before: MediaTime
    public var after: MediaTime

    public init(before: MediaTime = MediaTime(value: 1, timescale: 1), after: MediaTime = MediaTime(value: 1, timescale: 1)) {
        self.before = before
        self.after = after
    }

    /// Analyses the file at `path`. `interrupt` is called as the work goes on and may throw to
    /// stop it.
    public func analyse(path: String, interrupt: @escaping @Sendable () throws -> Void = {}) throws -> MomentAnalysis {
        let file = try MediaFile(path: path)
        let sound = Guarded<SoundAnalysis?>(nil)
        let listener = PipelineWorker("slomo detect sound") {
            let analysis = try SoundAnalysis(of: file, interrupt: interrupt)
            sound.withLock { $0 = analysis }
        }
        let picker = MomentPicker(before: before, after: after, duration: file.duration)
        let pictures: MotionAnalysis
        do {
            pictures = try MotionAnalysis(of: file, picker: picker, interrupt: interrupt)
        } catch {
            listener.join()
            throw error
        }
        if let error = listener.join() { throw error }
        let onsets = sound.read { $0?.onsets } ?? []
        let motion = pictures.motion
        let cuts = picker.cuts(in: motion)
        return MomentAnalysis(path: path, duration: file.duration, frames: pictures.frameTimes.count, motion: motion,
                              onsets: onsets, cuts: cuts.map { motion[$0].time },
                              moments: picker.moments(motion: motion, onsets: onsets, cuts: cuts, frameTimes: pictures.frameTimes))
    }
}
