import Foundation
import SlomoCapture
import SlomoCore
import SlomoTestSupport

/// A running session recording a small real-time test pattern at `fps` into `file` in a fresh
/// scratch folder; `settings` adjusts the output's settings before it is added, `configure`
/// the session (with its movie output) before it starts.
func startTestPatternRecording(_ scratch: String, file: String = "take.mov", fps: Int,
                               settings adjust: (inout MovieFileOutput.Settings) -> Void = { _ in },
                               configure: (CaptureSession, MovieFileOutput) throws -> Void = { _, _ in })
    throws -> (session: CaptureSession, take: MovieFileOutput, path: String) {
    let path = try FixtureCache.shared.scratchFolder(scratch).appendingPathComponent(file).path
    let session = CaptureSession()
    try session.add(.testPattern(width: 160, height: 120, frameRate: Rational(Int64(fps))))
    var settings = MovieFileOutput.Settings(path: path)
    adjust(&settings)
    let take = try session.add(MovieFileOutput(settings: settings))
    try configure(session, take)
    try session.startRunning()
    return (session, take, path)
}

/// Every video packet's presentation time in seconds, in decoding order, read by ffprobe.
func videoPacketTimes(_ path: String) throws -> [Double] {
    let result = try runChecked("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                            "packet=pts_time", "-of", "csv=p=0", path])
    return result.standardOutput.split(separator: "\n").compactMap { Double($0) }
}
