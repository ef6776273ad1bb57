import SlomoCore

/// Turns the measurements into moments: finds the cuts, the peaks of local motion away from
/// them and the sound onsets, ties each onset to the frame it happens in and to a motion peak
/// close to it, and ranks what remains.
struct MomentPicker {
    /// A motion peak and an onset this close (in seconds) are one moment.
    static let agreement = 0.030
    /// Two motion peaks closer than this (in seconds) are one.
    static let separation = 0.25
    /// A peak's motion must fall to half within this (in seconds) to make a moment.
    static let settling = 1.0
    /// A cut's spread must exceed this many 8-bit levels, and this many times its surroundings'.
    static let cutLevel = 12.0
    static let cutContrast = 4.0
    /// Local motion below this (levels × blocks) is noise: compression, sensor grain.
    static let motionFloor = 8.0

    let before: MediaTime
    let after: MediaTime
    let duration: MediaTime?

    /// Frames where nearly every block changed at once, far more than around them.
    func cuts(in motion: [FrameMotion]) -> [Int] {
        motion.indices.filter { index in
            let spread = motion[index].spread
            guard spread > Self.cutLevel else { return false }
            let around = motion[max(0, index - 24)..<min(motion.count, index + 25)].indices.filter { $0 != index }
                .map { motion[$0].spread }.sorted()
            let typical = around.isEmpty ? 0 : around[around.count / 2]
            return spread > Self.cutContrast * max(typical, 1)
        }
    }

    /// The frames (indices into `motion`) where each peak of local motion ends, away from `cuts`.
    func motionEnds(in motion: [FrameMotion], avoiding cuts: [Int]) -> [Int] {
        Set(endedPeaks(motion, avoiding: cuts).map(\.frame)).sorted()
    }

    /// Each peak of (smoothed) local motion that ends: the frame where it ends, and its height.
    private func endedPeaks(_ motion: [FrameMotion], avoiding cuts: [Int]) -> [(frame: Int, activity: Double)] {
        let activity = Self.smoothed(motion)
        return motionPeaks(activity, motion, avoiding: cuts).compactMap { peak in
            end(ofPeak: peak, smoothed: activity, in: motion).map { (frame: $0, activity: activity[peak]) }
        }
    }

    /// The moments of the measurements, strongest first; `frameTimes` are every frame's times,
    /// by which a moment's frame is numbered and an onset tied to the frame shown then.
    func moments(motion: [FrameMotion], onsets: [SoundOnset], cuts: [Int], frameTimes: [MediaTime]) -> [Moment] {
        let peakActivity = endedPeaks(motion, avoiding: cuts)
        let peaks = peakActivity.map(\.frame)
        let strength = Dictionary(peakActivity.map { ($0.frame, $0.activity) }, uniquingKeysWith: max)
        let strongest = peakActivity.map(\.activity).max() ?? 1
        var used = Set<Int>()
        var found: [Moment] = []
        for onset in onsets {
            let soundScore = min(1, onset.rise / 40)
            let frame = frameTimes.lastIndex { $0 <= onset.time } ?? (frameTimes.isEmpty ? nil : 0)
            let partner = peaks.filter { !used.contains($0) }.min { a, b in
                abs((motion[a].time - onset.time).doubleSeconds) < abs((motion[b].time - onset.time).doubleSeconds)
            }.flatMap { abs((motion[$0].time - onset.time).doubleSeconds) <= Self.agreement ? $0 : nil }
            if let partner { used.insert(partner) }
            let motionScore = partner.map { strength[$0]! / strongest } ?? 0
            found.append(moment(at: frame.map { frameTimes[$0] } ?? onset.time, frame: frame,
                                score: soundScore + motionScore, by: partner == nil ? [.sound] : [.motion, .sound],
                                onset: onset.time))
        }
        for peak in Set(peaks).subtracting(used) {
            let time = motion[peak].time
            found.append(moment(at: time, frame: Self.number(of: time, in: frameTimes), score: strength[peak]! / strongest,
                                by: [.motion], onset: nil))
        }
        return found.sorted { $0.score > $1.score || ($0.score == $1.score && $0.time < $1.time) }
    }

    /// The number of the frame at `time` among `frameTimes` (sorted).
    private static func number(of time: MediaTime, in frameTimes: [MediaTime]) -> Int? {
        var low = 0, high = frameTimes.count
        while low < high {
            let middle = (low + high) / 2
            if frameTimes[middle] < time { low = middle + 1 } else { high = middle }
        }
        return low < frameTimes.count ? low : nil
    }

    /// Each frame's activity averaged over the frames within a 120th of a second of it: at
    /// 240 fps a slow object moves a whole pixel only every few frames, and its activity
    /// flickers between nothing and something; a 60 fps camera would have seen it move steadily.
    static func smoothed(_ motion: [FrameMotion]) -> [Double] {
        var start = 0, end = 0, sum = 0.0
        return motion.indices.map { index in
            let time = motion[index].time.doubleSeconds
            while end < motion.count && motion[end].time.doubleSeconds <= time + 1.0 / 120 + 1e-9 {
                sum += motion[end].activity
                end += 1
            }
            while motion[start].time.doubleSeconds < time - 1.0 / 120 - 1e-9 {
                sum -= motion[start].activity
                start += 1
            }
            return sum / Double(end - start)
        }
    }

    /// Frames whose (smoothed) local motion is a peak: above the floor, the largest within
    /// `separation` either side, and not within a few frames of a cut.
    private func motionPeaks(_ activity: [Double], _ motion: [FrameMotion], avoiding cuts: [Int]) -> [Int] {
        let nearCut = Set(cuts.flatMap { ($0 - 3)...($0 + 3) })
        let activity = activity.indices.map { nearCut.contains($0) ? 0 : activity[$0] }
        var peaks: [Int] = []
        var windowStart = 0, windowEnd = 0
        for index in motion.indices where activity[index] >= Self.motionFloor {
            while (motion[index].time - motion[windowStart].time).doubleSeconds > Self.separation { windowStart += 1 }
            windowEnd = max(windowEnd, index)
            while windowEnd + 1 < motion.count && (motion[windowEnd + 1].time - motion[index].time).doubleSeconds <= Self.separation {
                windowEnd += 1
            }
            let neighbours = activity[windowStart...windowEnd]
            // The first of equal values wins, so a plateau gives one peak.
            if neighbours.max()! == activity[index] && neighbours.firstIndex(of: activity[index]) == index { peaks.append(index) }
        }
        return peaks
    }

    /// Where the motion of the peak at `peak` ends: once the smoothed activity falls below half
    /// the peak (within `settling` and the clip; nil when it does not: a motion that goes on is
    /// no moment),
    /// the last frame there whose own activity is still at least half the peak. A falling ball
    /// is fastest as it lands: the frame it stops in is the moment.
    func end(ofPeak peak: Int, smoothed activity: [Double], in motion: [FrameMotion]) -> Int? {
        let half = activity[peak] / 2
        var drop = peak
        while activity[drop] >= half {
            drop += 1
            // A motion still going when the clip ends, or a second later, is no moment.
            guard drop < motion.count, (motion[drop].time - motion[peak].time).doubleSeconds <= Self.settling else { return nil }
        }
        return (peak...min(motion.count - 1, drop + 2)).last { motion[$0].activity >= half } ?? drop
    }

    private func moment(at time: MediaTime, frame: Int?, score: Double, by evidence: [Moment.Evidence],
                        onset: MediaTime?) -> Moment {
        let start = max(.zero, time - before)
        let end = duration.map { min($0, time + after) } ?? time + after
        return Moment(time: time, frame: frame, score: score, foundBy: evidence, soundOnset: onset,
                      section: TimeRange(start: start, end: max(start, end)))
    }
}
