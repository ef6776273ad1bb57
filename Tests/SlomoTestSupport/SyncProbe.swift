import Foundation

/// Finds the flashes and beeps of a `flashAndBeep` clip (or a retimed copy of it) with
/// FFmpeg's own tools: the independent judge of A/V sync.
public enum SyncProbe {
    /// Presentation times (seconds) of the frames whose mean luma is bright, via ffprobe's
    /// `signalstats` filter.
    public static func flashTimes(_ path: String) throws -> [Double] {
        let result = try runChecked("ffprobe", ["-v", "error", "-f", "lavfi", "-i", "movie=\(path),signalstats",
                                                "-show_entries", "frame=pts_time:frame_tags=lavfi.signalstats.YAVG",
                                                "-of", "csv=p=0"])
        return result.standardOutput.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",")
            guard fields.count == 2, let time = Double(fields[0]), let luma = Double(fields[1]), luma > 128 else { return nil }
            return time
        }
    }

    /// The first audio track decoded by ffmpeg to mono 32-bit float at 48 kHz.
    public static func samples(_ path: String) throws -> [Float] {
        let (status, data, _) = try runCapturingFiles("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-map", "0:a:0",
                                                                 "-ac", "1", "-ar", "48000", "-f", "f32le", "-"])
        guard status == 0 else { throw CommandFailure(description: "ffmpeg could not decode \(path)") }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// Onset times (seconds) of beeps: the first sample above `threshold` after at least
    /// `gap` seconds below it.
    public static func beepOnsets(_ path: String, threshold: Float = 0.1, gap: Double = 0.2) throws -> [Double] {
        let audio = try samples(path)
        let quiet = Int(gap * 48000)
        var onsets: [Double] = []
        var lastLoud = -quiet - 1
        for (index, sample) in audio.enumerated() where abs(sample) > threshold {
            if index - lastLoud > quiet { onsets.append(Double(index) / 48000) }
            lastLoud = index
        }
        return onsets
    }
}
