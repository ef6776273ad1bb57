import Foundation
import SlomoConcurrency
import SlomoCore
import SlomoPlayback
import SlomoTestSupport
import Testing

// Nested in PlayerControlTests, which is serialized: every player test points SDL's disk driver
// at its own file through the environment, so two may not play at once.
extension PlayerControlTests {
/// The player's pitch, independent of its rate, changed while playing: what the sound device
/// played is measured (SDL's disk driver), in cents.
@Suite struct Pitch {
    /// 4 s of a 440 Hz tone at −6 dBFS, mono 48 kHz.
    static func tone() throws -> String {
        try FixtureCache.shared.path(for: "player-pitch-tone", extension: "wav", arguments: [
            "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
            "sine=frequency=440:sample_rate=48000:duration=4,volume=0.5", "-c:a", "pcm_s16le"])
    }

    /// A steady tone's frequency from its zero crossings (interpolated).
    static func frequency(_ x: ArraySlice<Float>) -> Double {
        let samples = Array(x)
        var crossings: [Double] = []
        for i in 1..<samples.count where samples[i - 1] < 0 && samples[i] >= 0 {
            crossings.append(Double(i - 1) + Double(-samples[i - 1] / (samples[i] - samples[i - 1])))
        }
        return Double(crossings.count - 1) / ((crossings.last! - crossings.first!) / 48000)
    }

    static func cents(_ measured: Double, _ expected: Double) -> Double { 1200 * log2(measured / expected) }

    /// Options of a headless player without a picture, logging into `folder`, and where its
    /// log and the sound it plays go.
    static func soundOnly(in folder: URL) -> (options: Player.Options, log: String, heard: String) {
        let (log, heard) = PlaybackProbe.files(in: folder)
        for (name, value) in PlaybackProbe.environment(heard: heard) { setenv(name, value, 1) }
        var options = Player.Options()
        options.presentationLog = log
        options.video = false
        return (options, log, heard)
    }

    /// Three semitones up from the start, then an octave up from 1.5 s (`setPitch`), at rate 1:
    /// 523.25 Hz, then 880 Hz, each within a cent; the log records the change; the status says it.
    @Test func pitchChangesWhilePlaying() throws {
        let folder = try FixtureCache.shared.scratchFolder("player-pitch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let item = try PlayerItem(path: try Self.tone())
        let (options, log, heard) = Self.soundOnly(in: folder)
        let player = Player(item: item, pitch: 3, options: options)
        let statusPitch = Guarded<Double?>(nil)
        Thread.detachNewThread {
            PlayerControlTests.wait(player, until: 1.5)
            player.setPitch(semitones: 12)
            PlayerControlTests.wait(player, until: 2.5)
            statusPitch.withLock { $0 = player.status?.pitch }
        }
        _ = try player.run()
        let probe = try PlaybackProbe(log: log, heard: heard, channels: 1)
        let rate = probe.sampleRate
        try #require(probe.audio.count >= rate * 35 / 10, "\(probe.audio.count) frames heard")
        let before = Self.frequency(probe.audio[rate * 3 / 10 ..< rate * 12 / 10])
        let after = Self.frequency(probe.audio[rate * 25 / 10 ..< rate * 35 / 10])
        print(String(format: "player pitch: +3 → %.3f Hz (%+.2f cent), then +12 → %.3f Hz (%+.2f cent); %d frames heard; changes %@",
                     before, Self.cents(before, 440 * pow(2, 3.0 / 12)), after, Self.cents(after, 880), probe.audio.count,
                     "\(probe.rateChanges.map { ($0.wallTime, $0.rate) })"))
        #expect(abs(Self.cents(before, 440 * pow(2, 3.0 / 12))) < 1)
        #expect(abs(Self.cents(after, 880)) < 1)
        // The length is kept: the tone sounds for 4 s (the device's buffers may add silence around it).
        let sounding = (probe.audio.lastIndex { abs($0) > 0.05 } ?? 0) - (probe.audio.firstIndex { abs($0) > 0.05 } ?? 0)
        print("tone heard for \(Double(sounding) / Double(rate)) s")
        #expect(abs(Double(sounding) - 4.0 * Double(rate)) < 0.01 * Double(rate))
        #expect(player.pitch == 12)
        #expect(statusPitch.withLock { $0 } == 12)
    }

    /// Varispeed has no pitch of its own: the player says so and plays the tone as it is.
    @Test func varispeedSaysItCannot() throws {
        let folder = try FixtureCache.shared.scratchFolder("player-pitch-varispeed")
        defer { try? FileManager.default.removeItem(at: folder) }
        let item = try PlayerItem(path: try Self.tone())
        let (options, log, heard) = Self.soundOnly(in: folder)
        let notices = Guarded<[String]>([])
        let player = Player(item: item, audioAlgorithm: .spectral, options: options) { event in
            if case .notice(let text) = event { notices.withLock { $0.append(text) } }
        }
        Thread.detachNewThread {
            PlayerControlTests.wait(player, until: 0.5)
            player.setAudioAlgorithm(.varispeed)
            player.setPitch(semitones: 5)
            PlayerControlTests.wait(player, until: 1.2)
            player.quit()
        }
        _ = try player.run()
        let probe = try PlaybackProbe(log: log, heard: heard, channels: 1)
        let rate = probe.sampleRate
        try #require(probe.audio.count >= rate * 11 / 10, "\(probe.audio.count) frames heard")
        let heardFrequency = Self.frequency(probe.audio[rate * 8 / 10 ..< rate * 11 / 10])
        print("varispeed with pitch: \(notices.withLock { $0 }); heard \(heardFrequency) Hz")
        #expect(notices.withLock { $0 }.contains { $0.contains("varispeed's pitch follows its rate") })
        #expect(abs(Self.cents(heardFrequency, 440)) < 1)
    }
}
}
