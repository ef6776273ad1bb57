// Records 3 s of a real-time 120 fps test pattern into a crash-safe movie and, at the same
// time, hands every frame to a callback that counts them, the way an analysis tool would
// watch a camera while recording it. The session's counters say what was dropped.
//
//   swift run CaptureExample take.mov
import Foundation
import Slomo
import Synchronization

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    print("usage: CaptureExample OUTPUT.mov")
    exit(64)
}

let seen = Atomic<Int>(0)
do {
    let session = CaptureSession()
    try session.add(CaptureInput.testPattern(width: 320, height: 240, frameRate: Rational(120)))
    let movie = MovieFileOutput(arguments[1], maxDuration: .seconds(3))
    try session.add(movie)
    // The latest frame only: a slow callback skips frames instead of delaying the recording.
    let frames = FrameOutput(alwaysDiscardsLateFrames: true) { _ in seen.add(1, ordering: .relaxed) }
    try session.add(frames)
    let result = try await session.record(until: movie)
    let counters = frames.counters
    print("recorded \(result.path): \(String(format: "%.2f", result.duration)) s, \(result.videoFrames) frames, "
          + "\(result.counters.droppedBecauseQueueFull) dropped (\(result.reason))")
    print("callback saw \(seen.load(ordering: .relaxed)) of \(counters.received) frames, \(counters.droppedAsLate) skipped as late")
} catch {
    print("error: \(error)")
    exit(1)
}
