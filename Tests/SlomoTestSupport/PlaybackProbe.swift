import Foundation

/// Runs `slomo play` headless with real SDL (its dummy video driver, and its disk audio driver,
/// which writes what would have been played to a file) and reads back what was shown, from
/// the presentation log, and what was heard, from that file: the judge of playback sync.
public struct PlaybackProbe {
    /// One picture shown, as the presentation log has it.
    public struct Shown: Decodable {
        public let clip: Int
        public let sourceTime: Double
        public let outputTime: Double
        public let wallTime: Double
        /// The device frame being heard when the picture was presented.
        public let audioFrame: Int?
        public let rate: Double
        public let dropped: Int
        public let skipped: Int
    }

    private struct Start: Decodable {
        let sampleRate: Int?
        let audioLatency: Double?
        let refreshRate: Double?
    }

    private struct End: Decodable {
        struct Statistics: Decodable { let shown, dropped, skipped, slots, slotsWithNewPicture, underruns: Int }
        let statistics: Statistics
        let audioFrames: Int?
    }

    /// A rate or algorithm change, when the player applied it.
    public struct RateChange: Decodable {
        public let wallTime: Double
        public let rate: Double
        public let algorithm: String
    }

    public let shown: [Shown]
    /// Every frame the player handed the sound device, mono (the first channel).
    public let audio: [Float]
    public let sampleRate: Int
    public let refreshRate: Double
    /// What the player reports as the device's latency, in seconds.
    public let audioLatency: Double
    public let dropped: Int, skipped: Int, underruns: Int
    public let slots: Int, slotsWithNewPicture: Int
    public let rateChanges: [RateChange]

    /// Plays `arguments` (after `play`) to the end; `channels` is the audio's channel count.
    public init(_ arguments: [String], channels: Int = 2, folder: URL) throws {
        let (log, heard) = Self.files(in: folder)
        let result = try Slomo.run(["play"] + arguments + ["--presentation-log", log], environment: Self.environment(heard: heard))
        guard result.status == 0 else {
            throw CommandFailure(description: "slomo play failed (\(result.status)): \(result.standardError)")
        }
        try self.init(log: log, heard: heard, channels: channels)
    }

    /// Fresh paths for a presentation log and the sound heard, in `folder`.
    public static func files(in folder: URL) -> (log: String, heard: String) {
        let tag = UUID().uuidString.prefix(6)
        return (folder.appendingPathComponent("presentation-\(tag).jsonl").path, folder.appendingPathComponent("heard-\(tag).f32").path)
    }

    /// SDL headless: the dummy video driver, and the disk audio driver writing to `heard`.
    public static func environment(heard: String) -> [String: String] {
        ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": heard]
    }

    /// Reads what a finished playback logged in `log` and played into `heard`.
    public init(log: String, heard: String, channels: Int = 2) throws {
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        let decoder = JSONDecoder()
        func decode<T: Decodable>(_ type: T.Type, event: String) -> [T] {
            lines.filter { $0.contains("\"event\":\"\(event)\"") }.compactMap { try? decoder.decode(T.self, from: Data($0.utf8)) }
        }
        shown = decode(Shown.self, event: "frame")
        rateChanges = decode(RateChange.self, event: "rate")
        guard let start = decode(Start.self, event: "start").first, let end = decode(End.self, event: "end").first else {
            throw CommandFailure(description: "the presentation log \(log) has no start or end line")
        }
        sampleRate = start.sampleRate ?? 48000
        refreshRate = start.refreshRate ?? 60
        audioLatency = start.audioLatency ?? 0
        (dropped, skipped, underruns) = (end.statistics.dropped, end.statistics.skipped, end.statistics.underruns)
        (slots, slotsWithNewPicture) = (end.statistics.slots, end.statistics.slotsWithNewPicture)
        let data = (try? Data(contentsOf: URL(fileURLWithPath: heard))) ?? Data()
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let played = stride(from: 0, to: samples.count - channels + 1, by: channels).map { samples[$0] }
        // SDL opens a device paused and its disk driver writes silence until it starts; the
        // player closes the device before its end line, so what the file holds beyond the frames
        // the player handed over came first: cut it, and file frame k is device frame k.
        let before = max(0, played.count - (end.audioFrames ?? played.count))
        audio = Array(played[before...])
    }

    /// Device frames where beeps start: the first sample above 0.1 after 0.2 s below it.
    public var beepOnsets: [Int] {
        var onsets: [Int] = [], lastLoud = -Int.max / 2
        let quiet = sampleRate / 5
        for (index, sample) in audio.enumerated() where abs(sample) > 0.1 {
            if index - lastLoud > quiet { onsets.append(index) }
            lastLoud = index
        }
        return onsets
    }

    /// For each flash whose picture was shown (a picture of source time in
    /// `flash ..< flash + length`), seconds from its beep's onset to the moment its first
    /// picture was presented, as the device was playing then (positive: picture after sound).
    public func syncErrors(flashes: [Double], length: Double) -> [(flash: Double, error: Double)] {
        let onsets = beepOnsets
        return flashes.compactMap { flash in
            guard let picture = shown.first(where: { $0.sourceTime >= flash - 1e-9 && $0.sourceTime < flash + length - 1e-9 }),
                  let heard = picture.audioFrame,
                  let beep = onsets.min(by: { abs($0 - heard) < abs($1 - heard) }) else { return nil }
            return (flash, Double(heard - beep) / Double(sampleRate))
        }
    }
}
