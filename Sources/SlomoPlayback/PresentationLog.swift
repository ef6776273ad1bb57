import Foundation
import SlomoCore

/// `--presentation-log`: one JSON object a line, for tests and for anyone checking sync. A
/// `start` line (the audio device's sample rate, driver and latency), a `frame` line for every
/// picture shown (its source time, output time, the wall-clock time it was presented, the
/// device frame being heard then, and the counts so far), a `rate` line when the rate or the
/// algorithm changes, an `underrun` line when the sound device found nothing to play, and an
/// `end` line with the totals and the frames handed to the device.
final class PresentationLog {
    private let handle: FileHandle
    private let encoder = JSONEncoder()

    /// Creates (or empties) the log at `path`.
    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw PlaybackError(.failed, "\(path): cannot write the presentation log")
        }
        self.handle = handle
        encoder.outputFormatting = [.sortedKeys]
    }

    deinit { try? handle.close() }

    func write<Line: Encodable>(_ line: Line) {
        guard var data = try? encoder.encode(line) else { return }
        data.append(0x0A)
        handle.write(data)
    }

    struct Start: Encodable {
        let event = "start"
        let sampleRate: Int?
        let audioDriver: String?
        let audioLatency: Double?
        let videoDriver: String?
        let refreshRate: Double?
        let rate: Double
        let algorithm: String
        let pitch: Double
    }

    struct Shown: Encodable {
        let event = "frame"
        let clip: Int
        let sourceTime: Double
        let outputTime: Double
        let wallTime: Double
        let audioFrame: Int?
        let rate: Double
        let dropped: Int
        let skipped: Int
    }

    struct RateChange: Encodable {
        let event = "rate"
        let wallTime: Double
        let outputTime: Double
        let rate: Double
        let algorithm: String
        /// Semitones the sound is moved by.
        let pitch: Double
    }

    struct Underrun: Encodable {
        let event = "underrun"
        let wallTime: Double
        let outputTime: Double
        let underruns: Int
    }

    struct End: Encodable {
        let event = "end"
        let statistics: PlaybackStatistics
        /// Frames the player handed to the sound device (SDL's disk driver may also write
        /// silence of its own before the device starts: the file can be longer by that).
        let audioFrames: Int?
    }
}
